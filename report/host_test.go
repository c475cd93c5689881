package report

import (
	"bytes"
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/analyze/roles"
)

// withHostDevice adds rank 0's pinned host memory to fixture f: a
// device of kind host_pinned, without GPU readings or capacity, whose
// pinned batches (inputs) grow by 16 MiB a snapshot.
func withHostDevice(f *analyze.Findings) *analyze.Device {
	gpu := f.Devices[0]
	h := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: 0, Host: true}, Order: gpu.Order, Axis: gpu.Axis,
		PrimaryMetric: analyze.MetricAllocated, Status: analyze.StatusFlat}
	for i, p := range gpu.Points {
		alloc := int64(i+1) * 16 * mibB
		bd := &roles.Breakdown{Allocated: alloc}
		bd.Bytes[roles.Inputs], bd.ByEvidence[roles.Inputs][roles.ByFrame] = alloc, alloc
		h.Points = append(h.Points, analyze.Point{Path: p.Path, Step: p.Step, Time: p.Time, X: p.X, Roles: bd,
			Usage: analyze.Usage{Allocated: alloc, Active: alloc, Requested: alloc, Reserved: alloc + 32*mibB, Inactive: 32 * mibB, LargestFree: 32 * mibB, Segments: i + 2, Blocks: i + 2}})
		h.PeakAllocated, h.PeakReserved = alloc, alloc+32*mibB
	}
	f.Devices = append(f.Devices, h)
	return h
}

// TestHostDeviceInEveryOutput: pinned host memory is a device like any
// other in every output: summary.json gives its kind and its roles, the
// page, the workbook and stdout name it, and its roles are inputs.
func TestHostDeviceInEveryOutput(t *testing.T) {
	f, _ := fixtureFindings()
	withHostDevice(f)
	s := BuildSummary(f, fixedOptions)
	var host *SummaryDevice
	for i := range s.Devices {
		if s.Devices[i].Kind == analyze.HostPinnedKind {
			host = &s.Devices[i]
		}
	}
	if host == nil {
		t.Fatalf("summary.json has no device of kind %s", analyze.HostPinnedKind)
	}
	if n := len(host.Snapshots); n != 12 || host.Snapshots[n-1].RolesBytes["inputs"] != 12*16*mibB || len(host.Snapshots[n-1].RolesBytes) != int(roles.NumRoles) {
		t.Errorf("host snapshots %d, last roles %v", n, host.Snapshots[n-1].RolesBytes)
	}
	for _, k := range s.Devices[:2] {
		if k.Kind != "" {
			t.Errorf("GPU device %d of kind %q", k.Device, k.Kind)
		}
	}
	page, err := HTML(f, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	// Its anchor and chart ids are its own, not cuda:0's.
	for _, want := range []string{`id="dev-r0-d0-host"`, `id="roles-r0-d0-host"`, "rank 0 · pinned host"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page has no %s", want)
		}
	}
	for _, id := range []string{`id="roles-r0-d0"`, `id="timeline-r0-d0"`} {
		if n := bytes.Count(page, []byte(id)); n != 1 {
			t.Errorf("%s appears %d times on the page, want once", id, n)
		}
	}
	b, err := XLSX(f, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if x := string(xlsxText(t, b)); !strings.Contains(x, "rank 0 · pinned host | snapshot | 12") {
		t.Errorf("the Roles sheet has no row of the pinned host memory:\n%s", tail(x, 2000))
	}
	var out bytes.Buffer
	if err := Text(&out, f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "pinned host") {
		t.Errorf("stdout does not list the pinned host memory:\n%s", out.String())
	}
}
