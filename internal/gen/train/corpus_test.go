package train

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpureport/internal/gen/alloc"
	"gpureport/snapshot"
)

// decodedRun is one case's snapshots as the project's decoder reads them.
type decodedRun struct {
	rank int
	step int64
	snap *snapshot.Snapshot
	path string
	oom  bool
}

// decodeRun decodes a case's snapshot files, listed by its truth, with
// their true rank and step (names need not carry either).
func decodeRun(t *testing.T, dir string, files []FileTruth) []decodedRun {
	t.Helper()
	var out []decodedRun
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
		if err != nil {
			t.Fatalf("decode %s: %v", p, err)
		}
		out = append(out, decodedRun{rank: f.Rank, step: int64(f.Step), snap: s, path: p, oom: f.OOM})
	}
	return out
}

// siteLive sums live blocks whose innermost frame under the project
// directory is basename:line, or, for a stack without one, whose autograd
// node is the site's ("MulBackward0 (autograd)").
func siteLive(s *snapshot.Snapshot, site string) int64 {
	var n int64
	for _, seg := range s.Segments {
		for _, b := range seg.Blocks {
			if b.State != snapshot.StateActiveAllocated {
				continue
			}
			if userFrame(s, b.Stack) == site || autogradNode(s, b.Stack) == site {
				n += b.Size
			}
		}
	}
	return n
}

// autogradNodeRE finds an autograd node's apply in a C++ frame name.
var autogradNodeRE = regexp.MustCompile(`torch::autograd::generated::(\w+)::apply\(`)

// autogradNode names the autograd node of a stack without Python frames
// as "Node (autograd)", "" for other stacks.
func autogradNode(s *snapshot.Snapshot, id snapshot.StackID) string {
	frames := s.Stacks.StackFrames(id)
	for _, f := range frames {
		if f.Line > 0 {
			return ""
		}
	}
	for _, f := range frames {
		if m := autogradNodeRE.FindStringSubmatch(f.Name); m != nil {
			return m[1] + " (autograd)"
		}
	}
	return ""
}

func userFrame(s *snapshot.Snapshot, id snapshot.StackID) string {
	for _, f := range s.Stacks.StackFrames(id) {
		if strings.HasPrefix(f.File, "/") && !strings.Contains(f.File, "-packages/") {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
	}
	return ""
}

// TestCorpusLabelsMatchFiles decodes every case of a small corpus and
// checks its label against the files: invariants of every snapshot, the
// leak site's live bytes growing exactly on the labelled rank, no growing
// planted site elsewhere, the OOM as its dump mode leaves it (the oom event
// in the dump's trace, or only train.log), the OOM cause from the labelled
// numbers, file times as the knob says, and nvidia-smi memory.used of each
// rank's mapped GPU tracking reserved memory.
func TestCorpusLabelsMatchFiles(t *testing.T) {
	dir := t.TempDir()
	labels, err := WriteCorpus(dir, CorpusOptions{Seed: 7, PerScenario: 1, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(labels.Cases) != len(Scenarios()) || labels.Generator != GeneratorName {
		t.Fatalf("%d cases, generator %q", len(labels.Cases), labels.Generator)
	}
	for _, c := range labels.Cases {
		t.Run(c.Name, func(t *testing.T) {
			if err := accept(c.Scenario, c.Expect); err != nil {
				t.Errorf("scenario %s: %v", c.Scenario, err)
			}
			if c.CapacityBytes < 15<<30 || c.CapacityBytes > 81<<30 {
				t.Errorf("capacity %d", c.CapacityBytes)
			}
			runs := decodeRun(t, filepath.Join(dir, c.Name), c.Truth.Files)
			byRank := map[int][]decodedRun{}
			var oomRun *decodedRun
			for i, r := range runs {
				checkSnapshot(t, r, c.Truth.Knobs)
				if r.oom {
					oomRun = &runs[i]
					continue
				}
				byRank[r.rank] = append(byRank[r.rank], r)
			}
			if len(byRank) != c.Truth.Ranks {
				t.Errorf("%d ranks on disk, label says %d", len(byRank), c.Truth.Ranks)
			}
			for rank, rs := range byRank {
				if len(rs) != c.Truth.Snapshots {
					t.Errorf("rank %d: %d periodic snapshots, label says %d", rank, len(rs), c.Truth.Snapshots)
				}
			}
			if c.Expect.Leak {
				site := c.LeakSites[0]
				leakRank := 0
				if c.LeakRank != nil {
					leakRank = *c.LeakRank
				}
				for rank, rs := range byRank {
					first, last := siteLive(rs[0].snap, site), siteLive(rs[len(rs)-1].snap, site)
					if rank == leakRank && last <= first {
						t.Errorf("rank %d: live bytes at %s %d -> %d, want growth", rank, site, first, last)
					}
					if rank != leakRank && last != first {
						t.Errorf("rank %d (not leaking): live bytes at %s %d -> %d", rank, site, first, last)
					}
				}
				if got := siteLive(byRank[leakRank][0].snap, site); got != c.Truth.LeakLiveFirst {
					t.Errorf("decoded %d live bytes at %s in the first snapshot, truth says %d", got, site, c.Truth.LeakLiveFirst)
				}
			} else if len(c.LeakSites) != 0 || c.LeakRank != nil {
				t.Errorf("no leak but sites %v rank %v", c.LeakSites, c.LeakRank)
			}
			if c.Expect.OOM {
				checkOOM(t, filepath.Join(dir, c.Name), c, oomRun)
			} else if oomRun != nil || c.Expect.OOMCause != "" {
				t.Errorf("no OOM but dump %v, cause %q", oomRun != nil, c.Expect.OOMCause)
			}
			checkFileTimes(t, filepath.Join(dir, c.Name), c)
			checkSmi(t, filepath.Join(dir, c.Name, SmiFile), c, byRank)
		})
	}
}

// checkOOM checks an OOM case's files against its dump mode and its cause
// against the labelled numbers.
func checkOOM(t *testing.T, dir string, c Label, oomRun *decodedRun) {
	t.Helper()
	o := c.Truth.OOM
	if o == nil {
		t.Fatal("OOM without truth")
	}
	info := OOMInfo{OOMError: alloc.OOMError{Rounded: o.Rounded, DeviceFree: o.DeviceFree, Inactive: o.Inactive}, LeakLive: o.LeakLive}
	if got := info.Cause(); got != c.Expect.OOMCause || got != o.Cause {
		t.Errorf("cause %q (truth %q), numbers say %q", c.Expect.OOMCause, o.Cause, got)
	}
	log, err := os.ReadFile(filepath.Join(dir, TrainLog))
	if err != nil || !bytes.Contains(log, []byte("torch.OutOfMemoryError: CUDA out of memory.")) {
		t.Errorf("train.log without the error: %v", err)
	}
	if o.Dump == OOMNone {
		if oomRun != nil {
			t.Errorf("dump mode none but %s", oomRun.path)
		}
		stats, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("memory_stats_rank%d.jsonl", o.Rank)))
		lines := strings.Split(strings.TrimSpace(string(stats)), "\n")
		if err != nil || !strings.Contains(lines[len(lines)-1], `"num_ooms": 1}`) {
			t.Errorf("dump mode none: memory_stats does not end with the OOM (%v): %q", err, lines[len(lines)-1])
		}
		return
	}
	if oomRun == nil {
		t.Fatalf("dump mode %s without an OOM dump", o.Dump)
	}
	if c.Truth.MaxEntries == 0 {
		t.Fatal("OOM case without a trace")
	}
	tr := oomRun.snap.Traces[o.Rank]
	at := -1
	for i, e := range tr {
		if e.Action == snapshot.ActionOOM {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("%s: no oom event in the trace", oomRun.path)
	}
	if e := tr[at]; e.Size != o.Rounded || int64(e.Addr) != o.DeviceFree {
		t.Errorf("oom event %+v, truth %+v", e, *o)
	}
	after := tr[at+1:]
	switch o.Dump {
	case OOMObserver:
		if len(after) != 0 {
			t.Errorf("observer dump: %d events after the oom", len(after))
		}
	case OOMExit:
		if len(after) == 0 {
			t.Error("exit dump: nothing freed after the oom")
		}
		for _, e := range after {
			if e.Action != snapshot.ActionFreeRequested && e.Action != snapshot.ActionFreeCompleted {
				t.Fatalf("exit dump: %v after the oom", e.Action)
			}
		}
	}
}

// checkFileTimes checks the snapshot modification times: at the dump time,
// or all within a minute of each other (a copy) days after the traces.
func checkFileTimes(t *testing.T, dir string, c Label) {
	t.Helper()
	var lo, hi time.Time
	for _, f := range c.Truth.Files {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		m := st.ModTime()
		if lo.IsZero() || m.Before(lo) {
			lo = m
		}
		if m.After(hi) {
			hi = m
		}
		dump := time.UnixMicro(f.TimeUS)
		switch c.Truth.Knobs.FileTimes {
		case TimesDump:
			if d := m.Sub(dump); d < 0 || d > time.Second {
				t.Errorf("%s: modified %v after its dump", f.Path, d)
			}
		case TimesCopied:
			if m.Sub(dump) < 24*time.Hour {
				t.Errorf("%s: copied %v after its dump", f.Path, m.Sub(dump))
			}
		}
	}
	if c.Truth.Knobs.FileTimes == TimesCopied && hi.Sub(lo) > time.Minute {
		t.Errorf("copied files span %v", hi.Sub(lo))
	}
}

// checkSnapshot applies the invariants every real snapshot obeys.
func checkSnapshot(t *testing.T, r decodedRun, k Knobs) {
	t.Helper()
	if want := max(k.VisibleGPUs, 1); len(r.snap.Traces) != 0 && len(r.snap.Traces) < want {
		t.Errorf("%s: %d device traces, %d GPUs visible", r.path, len(r.snap.Traces), want)
	}
	var prevEnd uint64
	for i, seg := range r.snap.Segments {
		if seg.Address < prevEnd {
			t.Fatalf("%s: segment %d out of order", r.path, i)
		}
		prevEnd = seg.Address + uint64(seg.TotalSize)
		var total, alloc, active, req int64
		next := seg.Address
		for _, b := range seg.Blocks {
			if b.Address != next {
				t.Fatalf("%s: segment %d blocks not contiguous", r.path, i)
			}
			next += uint64(b.Size)
			total += b.Size
			if b.State == snapshot.StateActiveAllocated {
				alloc += b.Size
			}
			if b.State.Active() {
				active += b.Size
				req += b.RequestedSize
			}
		}
		if total != seg.TotalSize || alloc != seg.AllocatedSize || active != seg.ActiveSize || req != seg.RequestedSize {
			t.Fatalf("%s: segment %d totals disagree with its blocks", r.path, i)
		}
		if seg.Device != r.rank {
			t.Fatalf("%s: segment on device %d, rank %d", r.path, seg.Device, r.rank)
		}
	}
}

// checkSmi reads nvidia-smi.csv and checks that it covers the node's
// GPUs and that each rank's mapped GPU's memory.used around each snapshot
// is at least that rank's reserved memory.
func checkSmi(t *testing.T, path string, c Label, byRank map[int][]decodedRun) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	header := "timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]"
	cols := 6
	if c.Truth.Knobs.SmiUUID {
		header = "timestamp, index, uuid, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]"
		cols = 7
	}
	if h := sc.Text(); h != header {
		t.Fatalf("header %q", h)
	}
	maxUsed := map[int]int64{}
	uuids := map[int]string{}
	rows := 0
	for sc.Scan() {
		f := strings.Split(sc.Text(), ", ")
		if len(f) != cols {
			t.Fatalf("row %q", sc.Text())
		}
		idx, _ := strconv.Atoi(f[1])
		if cols == 7 {
			if u, ok := uuids[idx]; ok && u != f[2] || !strings.HasPrefix(f[2], "GPU-") {
				t.Fatalf("row %q: uuid changed from %q", sc.Text(), u)
			}
			uuids[idx] = f[2]
			f = append(f[:2], f[3:]...)
		}
		used, _ := strconv.ParseInt(strings.TrimSuffix(f[3], " MiB"), 10, 64)
		total, _ := strconv.ParseInt(strings.TrimSuffix(f[4], " MiB"), 10, 64)
		if f[2] != c.Truth.GPU || total<<20 != c.CapacityBytes || used > total {
			t.Fatalf("row %q", sc.Text())
		}
		maxUsed[idx] = max(maxUsed[idx], used)
		rows++
	}
	if rows == 0 || len(maxUsed) != max(c.Truth.Knobs.NodeGPUs, c.Truth.Ranks) {
		t.Fatalf("%d rows for %d GPUs", rows, len(maxUsed))
	}
	for rank, rs := range byRank {
		var res int64
		for _, r := range rs {
			var n int64
			for _, s := range r.snap.Segments {
				n += s.TotalSize
			}
			res = max(res, n)
		}
		g := c.Truth.GPUMap[rank]
		if maxUsed[g]<<20 < res {
			t.Errorf("rank %d on GPU %d: nvidia-smi never shows more than %d MiB, reserved reaches %d MiB", rank, g, maxUsed[g], res>>20)
		}
	}
}

// TestCorpusDeterministic writes part of a corpus with one and with two
// workers: the files and labels must be identical.
func TestCorpusDeterministic(t *testing.T) {
	opt := CorpusOptions{Seed: 3, PerScenario: 1, Scenarios: []string{ScLeakSteady, ScFragOOM, ScMultiRank, ScSeqTailOOM}}
	a, b := t.TempDir(), t.TempDir()
	opt.Jobs = 1
	la, err := WriteCorpus(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Jobs = 2
	lb, err := WriteCorpus(b, opt)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(la)
	jb, _ := json.Marshal(lb)
	if !bytes.Equal(ja, jb) {
		t.Error("labels differ")
	}
	if ha, hb := hashTree(t, a), hashTree(t, b); ha != hb {
		t.Error("files differ")
	}
}

func hashTree(t *testing.T, dir string) [32]byte {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		h.Write([]byte(rel))
		if st, err := os.Stat(p); err == nil {
			h.Write([]byte(st.ModTime().UTC().Format(time.RFC3339Nano)))
		}
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// TestDrawReproducible checks that a label's seed redraws the same spec.
func TestDrawReproducible(t *testing.T) {
	for _, sc := range Scenarios() {
		seed := CaseSeed(11, sc, 0) & (1<<53 - 1)
		a, errA := Draw(sc, seed)
		b, errB := Draw(sc, seed)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: errors %v %v", sc, errA, errB)
		}
		if errA != nil {
			continue
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: two draws differ", sc)
		}
	}
	if _, err := Draw("nope", 1); err == nil {
		t.Error("unknown scenario accepted")
	}
}

func TestLeakSchedule(t *testing.T) {
	for _, tc := range []struct {
		l    *Leak
		want string
	}{
		{nil, "........"},
		{&Leak{Every: 1}, "xxxxxxxx"},
		{&Leak{Every: 3, StartStep: 1}, ".x..x..x"},
		{&Leak{Every: 1, BurstPeriod: 4, BurstLen: 2}, "xx..xx.."},
		{&Leak{Every: 1, StartStep: 2, BurstPeriod: 5, BurstLen: 1}, "..x....x"},
	} {
		var got strings.Builder
		for st := 0; st < 8; st++ {
			if tc.l.leaksAt(st) {
				got.WriteByte('x')
			} else {
				got.WriteByte('.')
			}
		}
		if got.String() != tc.want {
			t.Errorf("%+v: %s, want %s", tc.l, got.String(), tc.want)
		}
	}
}
