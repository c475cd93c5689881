package ingest

import (
	"archive/zip"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
)

// DefaultMemoryBudget bounds the decoder memory in flight while loading a
// run (bytes), which fits a laptop: 2 GiB.
const DefaultMemoryBudget int64 = 2 << 30

// Estimates of a snapshot decode's peak memory, measured on the real
// snapshots and 230 MB generated ones: a pickle of known size peaks at 0.4
// times its size (the model keeps 0.25); a stream (gzip, zip member) at 0.65
// times its decompressed size, as its trace entries are gathered at the
// end; and any decode needs about a megabyte of buffers and tables. The
// estimates round these up.
const (
	// decodeMemoryNum/decodeMemoryDen is the peak over the pickle's size.
	decodeMemoryNum, decodeMemoryDen = 1, 2
	// streamMemoryNum/streamMemoryDen is the peak over a stream's
	// decompressed size.
	streamMemoryNum, streamMemoryDen = 3, 4
	// decodeMemoryBase is the fixed part, bytes.
	decodeMemoryBase = 4 << 20
	// gzipMinRatio is the decompressed size assumed for a gzip file,
	// relative to its compressed size, when its trailer says less (the
	// trailer holds the size modulo 4 GiB). Real snapshots compress 15 to
	// 30 times.
	gzipMinRatio = 4
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
	return load(ctx, dir, opt, nil)
}

// load is Load with an observer that sees, under the memory semaphore's
// lock, each admission (weight > 0: the file's estimate) and release
// (weight < 0) with the estimated memory in flight after it; tests check
// the bound with it.
func load(ctx context.Context, dir string, opt LoadOptions, observe func(rel string, weight, inFlight int64)) (*Run, error) {
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
	sem.observe = observe

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
				if err := sem.acquire(ctx, c.Rel, w); err != nil {
					continue
				}
				results[i] = loadOne(c, opt, loc)
				sem.release(c.Rel, w)
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

// estimateMemory estimates the peak memory of decoding candidate c, in
// bytes, from its size and, for compressed snapshots, the decompressed
// size their container records (gzip trailer, zip directory).
func estimateMemory(c Candidate) int64 {
	if c.Kind != KindSnapshot {
		return max(c.Bytes, 1<<20)
	}
	cont, decompressed := containerSize(c.Path, c.Bytes)
	if cont == ContainerPickle {
		return decodeMemoryBase + c.Bytes*decodeMemoryNum/decodeMemoryDen
	}
	return decodeMemoryBase + decompressed*streamMemoryNum/streamMemoryDen
}

// containerSize sniffs a snapshot file's container and returns the size
// of the pickle inside: the file size for a bare pickle, the trailer's
// size for gzip (at least gzipMinRatio times the file), the data.pkl
// member's declared size for a zip archive.
func containerSize(path string, size int64) (Container, int64) {
	f, err := os.Open(path)
	if err != nil {
		return ContainerPickle, size
	}
	defer f.Close()
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	c, ok := SniffContainer(head[:n])
	switch {
	case !ok:
		return ContainerPickle, size
	case c == ContainerGzip:
		var tail [4]byte
		if size >= 18 {
			if _, err := f.ReadAt(tail[:], size-4); err == nil {
				return c, max(int64(binary.LittleEndian.Uint32(tail[:])), gzipMinRatio*size)
			}
		}
		return c, gzipMinRatio * size
	case c == ContainerZip:
		zr, err := zip.NewReader(f, size)
		if err == nil {
			if m := dataMember(zr); m != nil && m.UncompressedSize64 < 1<<50 {
				return c, int64(m.UncompressedSize64)
			}
		}
		return c, size
	}
	return c, size
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
		name := ParseName(c.Rel)
		r.snap = &SnapshotFile{
			Source:    c.Source,
			Container: cont,
			Step:      name.Step,
			Order:     name.Order,
			OrderKind: name.OrderKind,
			Rank:      name.Rank,
			Phase:     name.Phase,
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
	// observe, when set, is called under the lock after each acquire and
	// release (with the weight negated).
	observe func(rel string, weight, inFlight int64)
}

func newWeighted(n int64) *weighted {
	w := &weighted{free: n, total: n}
	w.cond = sync.NewCond(&w.mu)
	return w
}

var errCanceled = errors.New("canceled")

func (w *weighted) acquire(ctx context.Context, rel string, n int64) error {
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
	if w.observe != nil {
		w.observe(rel, n, w.total-w.free)
	}
	return nil
}

func (w *weighted) release(rel string, n int64) {
	w.mu.Lock()
	w.free += n
	if w.observe != nil {
		w.observe(rel, -n, w.total-w.free)
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}
