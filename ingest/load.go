package ingest

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/snapshot"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
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
	// jsonMemoryNum/jsonMemoryDen is the peak over a JSON snapshot's size:
	// it is read into a generic value tree first, and a 138 MB JSON of a
	// real snapshot peaked at 5 times its size.
	jsonMemoryNum, jsonMemoryDen = 6, 1
)

// LoadOptions tune Load. The zero value is ready to use.
type LoadOptions struct {
	// Decode tunes snapshot decoding.
	Decode snapshot.DecodeOptions
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
	// Columns names the columns of GPU log CSVs that the heuristics
	// cannot read (--gpu-log-columns); nil when not given.
	Columns *gpulog.ColumnSpec
	// Progress, when set, is called after each file is read, from one
	// goroutine at a time, with the count done, the total and the file.
	Progress func(done, total int, rel string)
	// Digest reduces every snapshot to its digest (see Reduce) as soon as
	// it is decoded, so a run's memory is that of its largest snapshot
	// plus small digests; SnapshotFile.Full decodes a file again in full.
	Digest bool
	// Cache, with Digest, is where digests are looked up before decoding
	// and stored after; nil decodes every file.
	Cache *DigestCache
	// ProgressBytes, when set, is called like Progress with the bytes read
	// so far and in all, and whether the file's digest came from Cache.
	ProgressBytes func(p LoadProgress)
	// Fresh, when set, is called on the loading goroutine with the one
	// snapshot a load with a cache decodes (a re-run after one more
	// snapshot: the file it keeps decoded in full), once its digest is in
	// the cache, while the other files' digests are still being read:
	// per-snapshot work the analysis would do on it after the load can
	// be done there, on a core that would otherwise wait, and kept as its
	// side entries. Not called when the load decodes none or several.
	Fresh func(f *SnapshotFile)
	// PointKind, when set with a Cache, names the side entry in which the
	// analysis keeps what it reads of a snapshot's device segments (their
	// sums, by device). A file whose digest and such an entry are both
	// cached is read without its devices' segments
	// (snapshot.DecodeDigestWithoutSegments), and the entry is kept for
	// SnapshotFile.PointEntry: in a re-run, reading every cached file's
	// segments was two thirds of reading its digest.
	PointKind string
	// now, when set, replaces time.Now as the clock of the stat index
	// (tests).
	now func() time.Time
}

// Load discovers and decodes the inputs of the run in dir. Files that
// cannot be used are listed in Run.Skipped with the reason; the error is
// for the directory itself (missing, unreadable) or cancellation.
func Load(ctx context.Context, dir string, opt LoadOptions) (*Run, error) {
	return load(ctx, dir, opt, nil)
}

// load is Load with an observer that sees, one call at a time, each
// admission (weight > 0: the file's estimate) and release
// (weight < 0) with the estimated memory in flight after it; tests check
// the bound with it.
func load(ctx context.Context, dir string, opt LoadOptions, observe func(rel string, weight, inFlight int64)) (*Run, error) {
	cands, skipped, err := discover(dir, opt.Exclude, opt.Columns)
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
	sem := &budgeted{sem: semaphore.NewWeighted(budget), observe: observe}

	results := make([]loaded, len(cands))
	// Decode the largest files first so a big straggler does not start last.
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cands[b].Bytes, cands[a].Bytes) })
	dl := newDigestLoader(opt)
	if opt.Digest && opt.Cache != nil {
		run.full = dl.full
	}
	if missing := dl.prepare(dir, cands, jobs); missing != nil {
		// The files to decode first, the largest first; then the digests
		// the cache holds.
		first := func(i int) int {
			if missing[i] {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(first(a), first(b)) })
	}

	var (
		mu       sync.Mutex
		done     int
		progress = opt.Progress
		lp       = LoadProgress{Total: len(cands)}
	)
	for _, c := range cands {
		lp.TotalBytes += c.Bytes
	}
	if opt.ProgressBytes != nil {
		opt.ProgressBytes(lp)
	}
	// finished counts candidate i as read.
	finished := func(i int) {
		c := cands[i]
		mu.Lock()
		defer mu.Unlock()
		done++
		if progress != nil {
			progress(done, len(cands), c.Rel)
		}
		if opt.ProgressBytes != nil {
			lp.Done, lp.DoneBytes, lp.Rel = done, lp.DoneBytes+c.Bytes, c.Rel
			if results[i].cached {
				lp.Cached++
			}
			opt.ProgressBytes(lp)
		}
	}
	// The manifests first: they are small, and they give the zone of the
	// kit's GPU logs.
	var zones []kitZone
	for i, c := range cands {
		if c.Kind == KindCaptureManifest {
			results[i] = loadOne(c, opt, loc, dl)
			zones = appendKitZone(zones, results[i].manifest)
			finished(i)
		}
	}
	// At most jobs files at once, started in order; each also waits for
	// its estimated memory under the budget.
	var g errgroup.Group
	g.SetLimit(jobs)
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		if cands[i].Kind == KindCaptureManifest {
			continue
		}
		g.Go(func() error {
			c := cands[i]
			w := min(estimateMemory(c), budget)
			if err := sem.acquire(ctx, c.Rel, w); err != nil {
				return nil // cancelled: reported below
			}
			z, byKit := kitZoneOf(zones, c, opt.Location)
			results[i] = loadOne(c, opt, cmp.Or(z.loc, loc), dl)
			if r := results[i].log; byKit && r != nil && r.Zoneless {
				results[i].zone = &z.LogZone
			}
			if f := results[i].snap; opt.Fresh != nil && dl.fresh(c, f, results[i].cached) {
				opt.Fresh(f)
			}
			sem.release(c.Rel, w)
			finished(i)
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A node's workers are its local-rank folders, whatever their files
	// hold: every file found counts, the ones skipped as holding nothing
	// too (a job whose one OOM is on node1's local rank 1, the other
	// workers' logs empty or without a memory figure, still ran two
	// workers on node0).
	var paths []string
	for _, c := range cands {
		paths = append(paths, c.Rel)
	}
	for _, s := range skipped {
		paths = append(paths, s.Path)
	}
	for _, r := range results {
		if r.log != nil {
			paths = append(paths, r.log.Path)
		}
	}
	run.nodes = elasticNodeRanks(paths)
	for _, r := range results {
		switch {
		case r.snap != nil:
			dl.attach(r.snap)
			run.Snapshots = append(run.Snapshots, r.snap)
		case r.log != nil:
			var node *elasticNode
			if n, ok := run.nodes[r.log.Path]; ok {
				node = &n
			}
			rankFromName(r.log, r.log.Path, node)
			run.Logs = append(run.Logs, r.log)
			if r.zone != nil {
				if run.LogZones == nil {
					run.LogZones = map[string]LogZone{}
				}
				run.LogZones[r.log.Path] = *r.zone
			}
		case r.manifest != nil:
			run.Captures = append(run.Captures, r.manifest)
		case r.skip != nil:
			run.Skipped = append(run.Skipped, *r.skip)
		}
	}
	slices.SortFunc(run.Skipped, func(a, b Skipped) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(run.Captures, func(a, b *CaptureManifest) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Path, b.Path))
	})
	return run, nil
}

// estimateMemory estimates the peak memory of decoding candidate c, in
// bytes, from its size and, for compressed snapshots, the decompressed
// size their container records (gzip trailer, zip directory).
func estimateMemory(c Candidate) int64 {
	if c.Kind != KindSnapshot {
		if c.wholeDocument {
			// The document, its decoded strings and the text written
			// from them are held at once, each at most its size: the
			// decompressed size of a compressed one (as a compressed
			// snapshot's is estimated).
			_, size := snapshot.ContainerSize(c.Path, c.Bytes)
			return max(3*size, 1<<20)
		}
		return max(c.Bytes, 1<<20)
	}
	cont, decompressed := snapshot.ContainerSize(c.Path, c.Bytes)
	switch cont {
	case snapshot.ContainerPickle:
		return decodeMemoryBase + c.Bytes*decodeMemoryNum/decodeMemoryDen
	case snapshot.ContainerJSON:
		return decodeMemoryBase + c.Bytes*jsonMemoryNum/jsonMemoryDen
	}
	return decodeMemoryBase + decompressed*streamMemoryNum/streamMemoryDen
}

// loaded is the outcome of reading one candidate: one field is set, or
// none for a JSON document that holds nothing its reader reads and that
// discovery would have passed over (Candidate.unclaimed "").
type loaded struct {
	snap     *SnapshotFile
	log      *gpulog.GPULog
	manifest *CaptureManifest
	skip     *Skipped
	// cached is true when snap's digest came from the cache.
	cached bool
	// zone is the capture manifest's zone log was read in; nil when the
	// run's was.
	zone *LogZone
}

// kitZone is the zone of the GPU logs under one manifest's gpu_log_dir.
type kitZone struct {
	LogZone
	dir string
	loc *time.Location
}

// appendKitZone adds the zone manifest m gives the GPU logs under its
// gpu_log_dir (m nil, without that folder or without utc_offset_seconds:
// none).
func appendKitZone(zones []kitZone, m *CaptureManifest) []kitZone {
	if m == nil || m.Files.GPULogDir == "" || !m.HasUTCOffset {
		return zones
	}
	return append(zones, kitZone{LogZone: LogZone{Offset: m.UTCOffset, Manifest: m.Path}, dir: m.Files.GPULogDir,
		loc: time.FixedZone("", int(m.UTCOffset/time.Second))})
}

// kitZoneOf is the zone of candidate c when it is a GPU log the kit wrote
// (under a manifest's gpu_log_dir) and the user gave no zone (set nil):
// the kit's nvidia-smi CSV has zoneless local times, and the manifest
// records the machine's offset. false otherwise.
func kitZoneOf(zones []kitZone, c Candidate, set *time.Location) (kitZone, bool) {
	if set != nil || c.Kind != KindLog {
		return kitZone{}, false
	}
	rel := filepath.ToSlash(c.Rel)
	for _, z := range zones {
		if strings.HasPrefix(rel, strings.TrimSuffix(z.dir, "/")+"/") {
			return z, true
		}
	}
	return kitZone{}, false
}

// loadOne decodes one candidate.
func loadOne(c Candidate, opt LoadOptions, loc *time.Location, dl *digestLoader) (r loaded) {
	switch c.Kind {
	case KindSnapshot:
		s, cont, cached, point, err := dl.load(c)
		r.cached = cached
		if err != nil {
			r.skip = &Skipped{Path: c.Rel, Reason: skipReason(err)}
			return r
		}
		name := ParseNameAt(c.Rel, c.ModTime)
		r.snap = &SnapshotFile{
			Source:    c.Source,
			Container: cont,
			Step:      name.Step,
			Order:     name.Order,
			OrderKind: name.OrderKind,
			Rank:      name.Rank,
			Phase:     name.Phase,
			Epoch:     name.Epoch,
			Snapshot:  s,
			point:     point,
		}
	case KindLog:
		l, err := gpulog.DecodeLogWith(c.Path, c.Log, gpulog.ReadOptions{Location: loc, Columns: opt.Columns, Name: c.Rel})
		if c.wholeDocument && errors.Is(err, gpulog.ErrNoReadings) && !errors.Is(err, gpulog.ErrNotUnwrapped) {
			// The reader decides a document's claim (classify): one
			// that holds nothing it reads is what discovery makes of an
			// unclaimed file. One it could not unwrap (cut short, too
			// large) is listed with the reader's reason.
			if c.unclaimed != "" {
				s := skippedFile(c.Rel, c.unclaimed)
				r.skip = &s
			}
			return r
		}
		if err != nil {
			r.skip = &Skipped{Path: c.Rel, Reason: skipReason(err)}
			return r
		}
		l.Source = c.Source
		r.log = l
	case KindCaptureManifest:
		m, err := ReadCaptureManifest(c.Path, c.Rel)
		if err != nil {
			r.skip = &Skipped{Path: c.Rel, Reason: skipReason(err)}
			return r
		}
		r.manifest = m
	}
	return r
}

// budgeted is the loader's memory semaphore (golang.org/x/sync's
// weighted semaphore, in bytes) with an optional observer for tests.
type budgeted struct {
	sem *semaphore.Weighted
	// mu guards inFlight and serialises observe.
	mu       sync.Mutex
	inFlight int64
	// observe, when set, sees each admission (weight > 0) and release
	// (weight < 0) with the bytes in flight after it. inFlight counts a
	// weight after the semaphore grants it and stops before returning
	// it, so it never exceeds what the semaphore holds.
	observe func(rel string, weight, inFlight int64)
}

// acquire waits for n bytes of the budget; it fails only when ctx ends.
func (b *budgeted) acquire(ctx context.Context, rel string, n int64) error {
	if err := b.sem.Acquire(ctx, n); err != nil {
		return err
	}
	b.note(rel, n)
	return nil
}

// release returns n bytes to the budget.
func (b *budgeted) release(rel string, n int64) {
	b.note(rel, -n)
	b.sem.Release(n)
}

func (b *budgeted) note(rel string, n int64) {
	if b.observe == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inFlight += n
	b.observe(rel, n, b.inFlight)
}

// skipReason is err's message without the file's path when err is a
// *FileError: the reason a Skipped entry gives beside its path.
func skipReason(err error) string {
	var fe *input.FileError
	if errors.As(err, &fe) {
		return fe.Err.Error()
	}
	return err.Error()
}

// rankFromName gives the OOM messages and memory_stats readings of log l
// that name no rank of their own the rank its path names (rank0.log,
// rank_3/train.log: RankFromPath), as snapshots take theirs: per-rank
// log files carry no rank prefix on their lines. node, when set, is the
// writer of a torchelastic worker's log on a job of several machines
// (elasticNodeRanks): its global rank is the rank, and its machine folder
// the machine of its messages that name none.
func rankFromName(l *gpulog.GPULog, rel string, node *elasticNode) {
	rank := RankFromPath(rel)
	if node != nil {
		rank = node.Rank
	}
	if rank == input.NoRank {
		return
	}
	if n := elasticNote(rel, node); n != "" && len(l.OOMs)+len(l.MemoryStats) > 0 {
		l.Notes = append(l.Notes, n)
	}
	for i := range l.OOMs {
		if l.OOMs[i].Rank == input.NoRank {
			l.OOMs[i].Rank = rank
		}
		if node != nil && l.OOMs[i].Machine == "" {
			l.OOMs[i].Machine = node.Machine
		}
	}
	for i := range l.MemoryStats {
		if l.MemoryStats[i].Rank == input.NoRank {
			l.MemoryStats[i].Rank = rank
		}
	}
}
