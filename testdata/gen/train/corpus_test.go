package train

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gpureport/ingest"
)

// decodedRun is one case's snapshots as the project's decoder reads them.
type decodedRun struct {
	rank int
	step int64
	snap *ingest.Snapshot
	path string
}

func decodeRun(t *testing.T, dir string) []decodedRun {
	t.Helper()
	var out []decodedRun
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == SmiFile {
			return err
		}
		s, _, err := ingest.DecodeFile(p, ingest.DecodeOptions{})
		if err != nil {
			t.Fatalf("decode %s: %v", p, err)
		}
		rank := ingest.RankFromPath(p)
		if rank == ingest.NoRank {
			rank = 0
		}
		out = append(out, decodedRun{rank: rank, step: ingest.StepFromName(p), snap: s, path: p})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].rank != out[j].rank {
			return out[i].rank < out[j].rank
		}
		return out[i].step < out[j].step
	})
	return out
}

// siteLive sums live blocks whose innermost frame under the project
// directory is basename:line.
func siteLive(s *ingest.Snapshot, site string) int64 {
	var n int64
	for _, seg := range s.Segments {
		for _, b := range seg.Blocks {
			if b.State != ingest.StateActiveAllocated {
				continue
			}
			if userFrame(s, b.Stack) == site {
				n += b.Size
			}
		}
	}
	return n
}

func userFrame(s *ingest.Snapshot, id ingest.StackID) string {
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
// planted site elsewhere, the oom event in OOM cases, and nvidia-smi
// memory.used tracking reserved memory.
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
			if c.Expect != intent(c.Scenario) {
				t.Errorf("expect %+v for scenario %s", c.Expect, c.Scenario)
			}
			if c.CapacityBytes < 15<<30 || c.CapacityBytes > 81<<30 {
				t.Errorf("capacity %d", c.CapacityBytes)
			}
			runs := decodeRun(t, filepath.Join(dir, c.Name))
			if len(runs) != c.Truth.Snapshots*c.Truth.Ranks && c.Truth.Ranks == 1 {
				t.Errorf("%d snapshot files, label says %d", len(runs), c.Truth.Snapshots)
			}
			byRank := map[int][]decodedRun{}
			for _, r := range runs {
				checkSnapshot(t, r)
				byRank[r.rank] = append(byRank[r.rank], r)
			}
			if len(byRank) != c.Truth.Ranks {
				t.Errorf("%d ranks on disk, label says %d", len(byRank), c.Truth.Ranks)
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
				last := byRank[c.Truth.OOM.Rank]
				s := last[len(last)-1]
				if !strings.Contains(s.path, "_oom") {
					t.Errorf("last snapshot %s is not the OOM dump", s.path)
				}
				if c.Truth.MaxEntries == 0 {
					t.Error("OOM case without a trace")
				} else {
					tr := s.snap.Traces[c.Truth.OOM.Rank]
					if e := tr[len(tr)-1]; e.Action != ingest.ActionOOM || e.Size != c.Truth.OOM.Rounded || int64(e.Addr) != c.Truth.OOM.DeviceFree {
						t.Errorf("last trace entry %+v, want the oom event", e)
					}
				}
				if c.Expect.Fragmentation != (c.Truth.OOM.Inactive > c.Truth.OOM.Rounded && c.Truth.OOM.LargestFree < c.Truth.OOM.Rounded) {
					t.Errorf("fragmentation %v but OOM %+v", c.Expect.Fragmentation, *c.Truth.OOM)
				}
			}
			checkSmi(t, filepath.Join(dir, c.Name, SmiFile), c, byRank)
		})
	}
}

// checkSnapshot applies the invariants every real snapshot obeys.
func checkSnapshot(t *testing.T, r decodedRun) {
	t.Helper()
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
			if b.State == ingest.StateActiveAllocated {
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

// checkSmi reads nvidia-smi.csv and checks that each GPU's memory.used
// around each snapshot is at least that rank's reserved memory.
func checkSmi(t *testing.T, path string, c Label, byRank map[int][]decodedRun) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	if h := sc.Text(); h != "timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]" {
		t.Fatalf("header %q", h)
	}
	maxUsed := map[int]int64{}
	rows := 0
	for sc.Scan() {
		f := strings.Split(sc.Text(), ", ")
		if len(f) != 6 {
			t.Fatalf("row %q", sc.Text())
		}
		idx, _ := strconv.Atoi(f[1])
		used, _ := strconv.ParseInt(strings.TrimSuffix(f[3], " MiB"), 10, 64)
		total, _ := strconv.ParseInt(strings.TrimSuffix(f[4], " MiB"), 10, 64)
		if f[2] != c.Truth.GPU || total<<20 != c.CapacityBytes || used > total {
			t.Fatalf("row %q", sc.Text())
		}
		maxUsed[idx] = max(maxUsed[idx], used)
		rows++
	}
	if rows == 0 || len(maxUsed) != c.Truth.Ranks {
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
		if maxUsed[rank]<<20 < res {
			t.Errorf("GPU %d: nvidia-smi never shows more than %d MiB, reserved reaches %d MiB", rank, maxUsed[rank], res>>20)
		}
	}
}

// TestCorpusDeterministic writes part of a corpus with one and with two
// workers: the files and labels must be identical.
func TestCorpusDeterministic(t *testing.T) {
	opt := CorpusOptions{Seed: 3, PerScenario: 1, Scenarios: []string{ScLeakSteady, ScFragOOM, ScMultiRank}}
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
