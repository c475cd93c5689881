package train

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"
)

// SmiFile is the nvidia-smi log's name in a run directory.
const SmiFile = "nvidia-smi.csv"

// smiTimeLayout is how nvidia-smi prints timestamps: local time, no zone.
// The generator writes UTC; reports of generated runs need --tz UTC.
const smiTimeLayout = "2006/01/02 15:04:05.000"

// writeSmi writes nvidia-smi.csv: the output of
//
//	nvidia-smi --query-gpu=timestamp,index[,uuid],name,memory.used,memory.total,utilization.gpu --format=csv -l N
//
// for every GPU of the node. A rank's GPU (Knobs.GPUMap) shows the rank's
// reserved bytes plus the memory outside the allocator plus noise, in MiB;
// the node's other GPUs show other jobs (Knobs.OtherWork) or a few MiB
// when idle.
func (s *sim) writeSmi() error {
	sp := s.spec
	path := filepath.Join(s.dir, SmiFile)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	uuids := s.uuids()
	if sp.Knobs.SmiUUID {
		fmt.Fprintln(w, "timestamp, index, uuid, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]")
	} else {
		fmt.Fprintln(w, "timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]")
	}
	first, last := s.ranks[0].tCtx, s.ranks[0].tExit
	for _, rk := range s.ranks {
		first = min(first, rk.tCtx)
		last = max(last, rk.tExit)
	}
	t := first - int64(sp.SmiLead*1e6)
	end := last + int64(sp.SmiTail*1e6)
	idle := int64(0)
	if sp.GPU.TotalMiB > 70000 {
		idle = 1
	}
	node := sp.nodeGPUs()
	byGPU := make([]*rank, node)
	for _, rk := range s.ranks {
		byGPU[sp.smiIndex(rk.idx)] = rk
	}
	others := s.otherWork(first, end)
	n := 0
	for ; t <= end; t += int64(sp.SmiInterval*1e6) + s.r.Int64N(8000) {
		for g := 0; g < node; g++ {
			ts := time.UnixMicro(t + int64(g)*(300+s.r.Int64N(400))).UTC()
			used, util := idle, 0
			if rk := byGPU[g]; rk != nil {
				if t >= rk.tCtx && t < rk.tExit {
					b := float64(s.overhead(rk, t)+rk.reservedAt(t)) / (1 << 20)
					b += s.r.NormFloat64() * sp.SmiNoiseMiB
					used = int64(math.Max(math.Round(b), 0))
					if t >= s.t0 {
						util = 80 + s.r.IntN(21)
					} else {
						util = s.r.IntN(10)
					}
				}
			} else if o := others[g]; o != nil {
				used, util = o.at(t, s.r.NormFloat64()*sp.SmiNoiseMiB, idle)
			}
			used = min(used, sp.GPU.TotalMiB)
			if sp.Knobs.SmiUUID {
				fmt.Fprintf(w, "%s, %d, %s, %s, %d MiB, %d MiB, %d %%\n", ts.Format(smiTimeLayout), g, uuids[g], sp.GPU.Name, used, sp.GPU.TotalMiB, util)
			} else {
				fmt.Fprintf(w, "%s, %d, %s, %d MiB, %d MiB, %d %%\n", ts.Format(smiTimeLayout), g, sp.GPU.Name, used, sp.GPU.TotalMiB, util)
			}
			n++
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	s.res.SmiSamples = n
	s.res.Files = append(s.res.Files, SmiFile)
	return nil
}

// uuids returns the node's GPU UUIDs, drawn from the spec's seed.
func (s *sim) uuids() []string {
	r := knobRNG(s.spec.Seed ^ 0x75756964)
	out := make([]string, s.spec.nodeGPUs())
	for i := range out {
		out[i] = fmt.Sprintf("GPU-%08x-%04x-%04x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint64()&0xffffffffffff)
	}
	return out
}

// otherJob is another job's memory on a GPU of the node, in MiB.
type otherJob struct {
	kind       string
	start, end int64 // microseconds
	level      float64
	slope      float64 // MiB per microsecond
	amp        float64 // saw-tooth amplitude
	period     int64
}

// otherWork draws the node's other GPUs' jobs: levels near the run's own
// memory, so that joining the wrong GPU is not obviously wrong.
func (s *sim) otherWork(first, end int64) map[int]*otherJob {
	sp := s.spec
	out := map[int]*otherJob{}
	var runPeak float64
	for _, rk := range s.ranks {
		for _, p := range rk.resTL {
			runPeak = max(runPeak, float64(p.reserved+s.overhead(rk, p.t))/(1<<20))
		}
	}
	total := float64(sp.GPU.TotalMiB)
	span := float64(end - first)
	for g := 0; g < sp.nodeGPUs(); g++ {
		kind, ok := sp.Knobs.OtherWork[g]
		if !ok || kind == "idle" {
			continue
		}
		j := &otherJob{kind: kind, start: first - int64(s.r.Float64()*span), end: end + int64(s.r.Float64()*span)}
		if s.r.Float64() < 0.3 {
			// The job starts or stops during the run.
			j.start = first + int64(s.r.Float64()*0.5*span)
		}
		j.level = math.Min(runPeak*(0.5+0.9*s.r.Float64()), 0.95*total)
		switch kind {
		case "growing":
			j.slope = (0.05 + 0.2*s.r.Float64()) * total / span
		case "sawtooth":
			j.amp = (0.05 + 0.2*s.r.Float64()) * total
			j.period = int64(span * (0.05 + 0.2*s.r.Float64()))
		}
		out[g] = j
	}
	return out
}

// at returns the job's memory.used (MiB) and utilization at time t.
func (j *otherJob) at(t int64, noise float64, idle int64) (int64, int) {
	if t < j.start || t >= j.end {
		return idle, 0
	}
	v := j.level + noise
	switch j.kind {
	case "growing":
		v += j.slope * float64(t-j.start)
	case "sawtooth":
		v += j.amp * float64((t-j.start)%max(j.period, 1)) / float64(max(j.period, 1))
	}
	return int64(math.Max(math.Round(v), 0)), 60 + int(t/1000%40)
}
