package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/google/pprof/profile"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/report/words"
)

// The leak attribution as a pprof profile (gzipped profile.proto), so
// `go tool pprof -top`, `go tool pprof -http` and flame-graph viewers can
// browse where live memory sits and where it grows.
//
// One sample per stack group (Device.Groups; a device without groups
// contributes its suspects), its location list the group's representative
// stack, innermost frame first. Sample types, all in bytes:
//
//   - growth_bytes: live bytes at the device's last snapshot minus at its
//     first (the default sample type; negative for groups that shrank),
//     the difference pprof -diff_base would show;
//   - live_bytes_step_N (or live_bytes_snapshot_N on an hours axis): live
//     bytes at each snapshot, the union over devices in axis order, 0 for a
//     device without that snapshot.
//
// Labels: device ("rank 1 · cuda:0"), site, fingerprint, and suspect
// ("yes", or "suppressed: NAME") with the fitted slope as a numeric label
// slope_bytes_per_step (or _per_hour).

// pprofGrowth is the growth sample type.
const pprofGrowth = "growth_bytes"

// Pprof writes the profile to w.
func Pprof(w io.Writer, f *analyze.Findings, opt Options) error {
	p, err := buildProfile(f, opt)
	if err != nil {
		return err
	}
	return p.Write(w)
}

// WritePprof writes the profile to path atomically.
func WritePprof(path string, f *analyze.Findings, opt Options) error {
	var buf bytes.Buffer
	if err := Pprof(&buf, f, opt); err != nil {
		return fmt.Errorf("pprof %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes(), 0o644)
}

// pointLabel names a device point's sample type.
func pointLabel(d *analyze.Device, i int) string {
	if d.Axis == analyze.AxisStep && d.Points[i].Step != input.NoStep {
		return "live_bytes_step_" + strconv.FormatInt(d.Points[i].Step, 10)
	}
	return "live_bytes_snapshot_" + strconv.Itoa(i+1)
}

// pprofSeries is one sample's source: a group or a suspect.
type pprofSeries struct {
	dev      *analyze.Device
	site, fn string
	fp       string
	stack    []analyze.Frame
	user     []bool
	bytes    []int64
	suspect  *analyze.Suspect
	other    bool
}

func buildProfile(f *analyze.Findings, opt Options) (*profile.Profile, error) {
	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: pprofGrowth, Unit: "bytes"}},
		DefaultSampleType: pprofGrowth,
		Comments: []string{"gpureport " + opt.Version + ": leak attribution of " + f.RunDir,
			"library frames (torch, the allocator, installed packages) below the innermost user frame are trimmed: the leaf is the user's line"},
	}
	if !opt.GeneratedAt.IsZero() {
		p.TimeNanos = opt.GeneratedAt.UnixNano()
	}
	// Sample types: the union of point labels, in first-seen order per
	// device (devices share steps in the common case).
	typeIdx := map[string]int{}
	for _, d := range f.Devices {
		for i := range d.Points {
			l := pointLabel(d, i)
			if _, ok := typeIdx[l]; !ok {
				typeIdx[l] = len(p.SampleType)
				p.SampleType = append(p.SampleType, &profile.ValueType{Type: l, Unit: "bytes"})
			}
		}
	}
	funcs := map[[2]string]*profile.Function{}
	locs := map[analyze.Frame]*profile.Location{}
	location := func(fr analyze.Frame) *profile.Location {
		if l, ok := locs[fr]; ok {
			return l
		}
		key := [2]string{fr.Name, fr.File}
		fn, ok := funcs[key]
		if !ok {
			name := fr.Name
			if name == "" {
				name = "??"
			}
			fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name, Filename: fr.File}
			funcs[key] = fn
			p.Function = append(p.Function, fn)
		}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: int64(fr.Line)}}}
		locs[fr] = l
		p.Location = append(p.Location, l)
		return l
	}
	for _, d := range f.Devices {
		for _, s := range pprofSources(d) {
			if len(s.bytes) == 0 {
				continue
			}
			values := make([]int64, len(p.SampleType))
			values[0] = s.bytes[len(s.bytes)-1] - s.bytes[0]
			for i, b := range s.bytes {
				if i < len(d.Points) {
					values[typeIdx[pointLabel(d, i)]] = b
				}
			}
			stack := userLeaf(s.stack, s.user)
			if len(stack) == 0 {
				site := s.site
				if site == "" {
					site = "(no stack)"
				}
				stack = []analyze.Frame{{Name: site}}
			}
			smp := &profile.Sample{Value: values, Label: map[string][]string{"device": {words.Device(d.DeviceKey)}}}
			if s.site != "" {
				smp.Label["site"] = []string{s.site}
			}
			if s.fp != "" {
				smp.Label["fingerprint"] = []string{s.fp}
			}
			if s.other {
				smp.Label["group"] = []string{"all other groups"}
			}
			if sus := s.suspect; sus != nil {
				v := "yes"
				if sus.Suppressed != "" {
					v = "suppressed: " + sus.Suppressed
				}
				smp.Label["suspect"] = []string{v}
				if finite(sus.Trend.Slope) {
					per := sus.Trend.Per
					if per == "" {
						per = "step"
					}
					smp.NumLabel = map[string][]int64{"slope_bytes_per_" + string(per): {int64(math.Round(sus.Trend.Slope))}}
					smp.NumUnit = map[string][]string{"slope_bytes_per_" + string(per): {"bytes"}}
				}
			}
			for _, fr := range stack {
				smp.Location = append(smp.Location, location(fr))
			}
			p.Sample = append(p.Sample, smp)
		}
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("build profile: %w", err)
	}
	return p, nil
}

// userLeaf trims the library and native frames below a stack's innermost
// user frame (stacks are innermost first; user marks the user frames, as
// the analysis found them), so that `pprof -top`, which ranks leaves,
// puts the user's allocation site (train_step) first rather than
// torch::unwind::unwind or the caching allocator, which every sample
// shares. A stack without a user frame is kept whole.
func userLeaf(stack []analyze.Frame, user []bool) []analyze.Frame {
	for i := range stack {
		if i < len(user) && user[i] {
			return stack[i:]
		}
	}
	return stack
}

// pprofSources lists a device's groups (with their suspects attached),
// or its suspects when the analysis recorded no groups.
func pprofSources(d *analyze.Device) []pprofSeries {
	var out []pprofSeries
	if len(d.Groups) > 0 {
		// Suspect.Group names the suspect's group.
		bySuspect := map[int]*analyze.Suspect{}
		for i := range d.Suspects {
			if g := d.Suspects[i].Group; g >= 0 && g < len(d.Groups) && bySuspect[g] == nil {
				bySuspect[g] = &d.Suspects[i]
			}
		}
		for i := range d.Groups {
			g := &d.Groups[i]
			s := pprofSeries{dev: d, site: g.Site, fn: g.Function, fp: g.Fingerprint, stack: g.Stack, user: g.User, bytes: g.Bytes, other: g.Other}
			if !g.Other {
				s.suspect = bySuspect[i]
			}
			out = append(out, s)
		}
		return out
	}
	for i := range d.Suspects {
		s := &d.Suspects[i]
		out = append(out, pprofSeries{dev: d, site: s.Site, fn: s.Function, fp: s.Fingerprint, stack: s.Stack, user: s.User, bytes: s.Bytes, suspect: s})
	}
	return out
}

// WriteDiffPprof writes a diff as a pprof profile to path: one sample per
// signature of all devices merged, sample types delta_bytes (the default;
// B minus A), bytes_a and bytes_b, like pprof -diff_base.
func WriteDiffPprof(path string, d *DiffReport, opt Options) error {
	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "delta_bytes", Unit: "bytes"}, {Type: "bytes_a", Unit: "bytes"}, {Type: "bytes_b", Unit: "bytes"}},
		DefaultSampleType: "delta_bytes",
		Comments:          []string{"gpureport " + opt.Version + " diff: A=" + d.A.Path + " B=" + d.B.Path},
	}
	if !opt.GeneratedAt.IsZero() {
		p.TimeNanos = opt.GeneratedAt.UnixNano()
	}
	locs := map[analyze.Frame]*profile.Location{}
	funcs := map[[2]string]*profile.Function{}
	for _, e := range d.Total {
		stack := e.Stack
		if len(stack) == 0 {
			stack = []analyze.Frame{{Name: cmpOr(e.Site, "(no stack)")}}
		}
		smp := &profile.Sample{Value: []int64{e.Delta, e.BytesA, e.BytesB},
			Label: map[string][]string{"status": {string(e.Status)}, "site": {e.Site}, "fingerprint": {e.Fingerprint}}}
		for _, fr := range stack {
			l, ok := locs[fr]
			if !ok {
				key := [2]string{fr.Name, fr.File}
				fn, ok := funcs[key]
				if !ok {
					fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: cmpOr(fr.Name, "??"), SystemName: cmpOr(fr.Name, "??"), Filename: fr.File}
					funcs[key] = fn
					p.Function = append(p.Function, fn)
				}
				l = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: int64(fr.Line)}}}
				locs[fr] = l
				p.Location = append(p.Location, l)
			}
			smp.Location = append(smp.Location, l)
		}
		p.Sample = append(p.Sample, smp)
	}
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("pprof %s: %w", path, err)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("pprof %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes(), 0o644)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
