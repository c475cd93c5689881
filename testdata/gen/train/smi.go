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
//	nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,utilization.gpu --format=csv -l N
//
// for the run's GPUs. memory.used is the rank's reserved bytes plus the
// memory outside the allocator plus noise, in MiB; an idle GPU shows a
// few MiB.
func (s *sim) writeSmi() error {
	sp := s.spec
	path := filepath.Join(s.dir, SmiFile)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]")
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
	n := 0
	for ; t <= end; t += int64(sp.SmiInterval*1e6) + s.r.Int64N(8000) {
		for i, rk := range s.ranks {
			ts := time.UnixMicro(t + int64(i)*(300+s.r.Int64N(400))).UTC()
			used, util := idle, 0
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
			used = min(used, sp.GPU.TotalMiB)
			fmt.Fprintf(w, "%s, %d, %s, %d MiB, %d MiB, %d %%\n", ts.Format(smiTimeLayout), i, sp.GPU.Name, used, sp.GPU.TotalMiB, util)
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
