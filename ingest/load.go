package ingest

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"
)

// DefaultMemoryBudget bounds the decoder memory in flight while loading a
// run (bytes), which fits a laptop: 2 GiB.
const DefaultMemoryBudget int64 = 2 << 30

// decodeMemoryFactor estimates a snapshot decode's peak memory as a
// multiple of its file size (gzip files count their compressed size
// times gzipFactor on top).
const (
	decodeMemoryFactor = 1
	gzipFactor         = 8
)

// LoadOptions tune Load. The zero value is ready to use.
type LoadOptions struct {
	// Decode tunes snapshot decoding.
	Decode DecodeOptions
	// Location is the zone for zoneless log timestamps; nil means the
	// local zone of the machine running gpureport.
	Location *time.Location
	// Jobs is the number of files decoded at once; 0 means one per CPU.
	Jobs int
	// MemoryBudget bounds the estimated decode memory in flight, in bytes;
	// 0 means DefaultMemoryBudget. A file larger than the budget is decoded
	// alone.
	MemoryBudget int64
	// Exclude lists folders not to read (the report's output folder when
	// it is not the default one).
	Exclude []string
	// Progress, when set, is called after each file is read, from one
	// goroutine at a time, with the count done, the total and the file.
	Progress func(done, total int, rel string)
}

// Load discovers and decodes the inputs of the run in dir. Files that
// cannot be used are listed in Run.Skipped with the reason; the error is
// for the directory itself (missing, unreadable) or cancellation.
func Load(ctx context.Context, dir string, opt LoadOptions) (*Run, error) {
	cands, skipped, err := Discover(dir, opt.Exclude)
	if err != nil {
		return nil, err
	}
	loc := opt.Location
	if loc == nil {
		loc = time.Local
	}
	run := &Run{Dir: dir, Skipped: skipped, Location: loc}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	budget := cmp.Or(opt.MemoryBudget, DefaultMemoryBudget)
	sem := newWeighted(budget)

	results := make([]loaded, len(cands))
	// Decode the largest files first so a big straggler does not start last.
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cands[b].Bytes, cands[a].Bytes) })

	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		done     int
		work     = make(chan int)
		progress = opt.Progress
	)
	for range min(jobs, max(len(cands), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				c := cands[i]
				w := min(estimateMemory(c), budget)
				if err := sem.acquire(ctx, w); err != nil {
					continue
				}
				results[i] = loadOne(c, opt, loc)
				sem.release(w)
				mu.Lock()
				done++
				if progress != nil {
					progress(done, len(cands), c.Rel)
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, r := range results {
		switch {
		case r.snap != nil:
			run.Snapshots = append(run.Snapshots, r.snap)
		case r.log != nil:
			run.Logs = append(run.Logs, r.log)
		case r.skip != nil:
			run.Skipped = append(run.Skipped, *r.skip)
		}
	}
	slices.SortFunc(run.Skipped, func(a, b Skipped) int { return cmp.Compare(a.Path, b.Path) })
	ResolveProcessGPUs(run.Logs)
	return run, nil
}

func estimateMemory(c Candidate) int64 {
	w := c.Bytes * decodeMemoryFactor
	if c.Kind == KindSnapshot && c.Bytes > 2 {
		// Compressed input expands; the container is sniffed again when
		// decoding, so estimate from the extension here.
		if len(c.Rel) > 3 && c.Rel[len(c.Rel)-3:] == ".gz" {
			w *= gzipFactor
		}
	}
	return max(w, 1<<20)
}

// loaded is the outcome of reading one candidate: exactly one field is set.
type loaded struct {
	snap *SnapshotFile
	log  *GPULog
	skip *Skipped
}

// loadOne decodes one candidate.
func loadOne(c Candidate, opt LoadOptions, loc *time.Location) (r loaded) {
	switch c.Kind {
	case KindSnapshot:
		s, cont, err := DecodeFile(c.Path, opt.Decode)
		if err != nil {
			r.skip = &Skipped{Path: c.Rel, Reason: stripPath(err, c.Path)}
			return r
		}
		r.snap = &SnapshotFile{
			Source:    c.Source,
			Container: cont,
			Step:      StepFromName(c.Rel),
			Rank:      RankFromPath(c.Rel),
			Snapshot:  s,
		}
	case KindLog:
		l, err := DecodeLog(c.Path, c.Log, loc)
		if err != nil {
			r.skip = &Skipped{Path: c.Rel, Reason: stripPath(err, c.Path)}
			return r
		}
		l.Source = c.Source
		r.log = l
	}
	return r
}

// stripPath removes a leading "path: " from an error message, since the
// skipped list prints the path beside the reason.
func stripPath(err error, path string) string {
	msg := err.Error()
	if len(msg) > len(path)+2 && msg[:len(path)] == path && msg[len(path):len(path)+2] == ": " {
		return msg[len(path)+2:]
	}
	return msg
}

// weighted is a counting semaphore over bytes.
type weighted struct {
	mu    sync.Mutex
	cond  *sync.Cond
	free  int64
	total int64
}

func newWeighted(n int64) *weighted {
	w := &weighted{free: n, total: n}
	w.cond = sync.NewCond(&w.mu)
	return w
}

var errCanceled = errors.New("canceled")

func (w *weighted) acquire(ctx context.Context, n int64) error {
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.free < n {
		if ctx.Err() != nil {
			return errCanceled
		}
		w.cond.Wait()
	}
	w.free -= n
	return nil
}

func (w *weighted) release(n int64) {
	w.mu.Lock()
	w.free += n
	w.cond.Broadcast()
	w.mu.Unlock()
}
