package train

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// maxAttempts bounds the draws per case: a draw whose simulation does not
// show what its scenario plants (a clean run that runs out of memory, a
// leak OOM that looks like fragmentation) is replaced by the next one.
const maxAttempts = 12

// CorpusOptions configure WriteCorpus.
type CorpusOptions struct {
	// Seed is the corpus seed; PerScenario the cases of each scenario;
	// Jobs the cases simulated at once (at least 1).
	Seed        uint64
	PerScenario int
	Jobs        int
	// Scenarios restricts the corpus (nil: all).
	Scenarios []string
}

// WriteCorpus writes one run directory per case under dir
// (<scenario>-NNN) and returns their labels in corpus order. Existing
// case directories are replaced. The result depends only on the seed and
// the counts, not on Jobs.
func WriteCorpus(dir string, opt CorpusOptions) (*Labels, error) {
	scs := opt.Scenarios
	if scs == nil {
		scs = Scenarios()
	}
	type job struct {
		idx      int
		scenario string
		i        int
	}
	var jobs []job
	for _, sc := range scs {
		for i := 0; i < opt.PerScenario; i++ {
			jobs = append(jobs, job{len(jobs), sc, i})
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	labels := make([]Label, len(jobs))
	errs := make([]error, len(jobs))
	ch := make(chan job)
	var wg sync.WaitGroup
	for range max(opt.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				name := fmt.Sprintf("%s-%03d", j.scenario, j.i)
				lab, err := writeCase(dir, name, j.scenario, CaseSeed(opt.Seed, j.scenario, j.i))
				labels[j.idx], errs[j.idx] = lab, err
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("case %s-%03d: %w", jobs[i].scenario, jobs[i].i, err)
		}
	}
	return &Labels{Generator: GeneratorName, Seed: opt.Seed, Cases: labels}, nil
}

// writeCase draws, simulates and judges a case until a draw shows what the
// scenario plants, and leaves that run in dir/name.
func writeCase(dir, name, scenario string, seed uint64) (Label, error) {
	final := filepath.Join(dir, name)
	tmp := filepath.Join(dir, "."+name+".tmp")
	var last error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		s := seed
		if attempt > 0 {
			s = splitmix(seed + uint64(attempt))
		}
		s &= 1<<53 - 1 // exact in JSON numbers
		lab, err := tryCase(tmp, scenario, s)
		if err != nil {
			slog.Debug("case draw rejected", "case", name, "seed", s, "reason", err)
			last = err
			continue
		}
		if err := os.RemoveAll(final); err != nil {
			return Label{}, err
		}
		if err := os.Rename(tmp, final); err != nil {
			return Label{}, err
		}
		lab.Name = name
		slog.Debug("case written", "case", name, "seed", s, "attempt", attempt+1)
		return lab, nil
	}
	os.RemoveAll(tmp)
	return Label{}, fmt.Errorf("no usable draw in %d attempts (last: %v)", maxAttempts, last)
}

func tryCase(tmp, scenario string, seed uint64) (Label, error) {
	sp, err := Draw(scenario, seed)
	if err != nil {
		return Label{}, err
	}
	if err := os.RemoveAll(tmp); err != nil {
		return Label{}, err
	}
	res, err := Run(sp, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return Label{}, err
	}
	lab, err := Judge(scenario, sp, res)
	if err != nil {
		os.RemoveAll(tmp)
		return Label{}, err
	}
	return lab, nil
}
