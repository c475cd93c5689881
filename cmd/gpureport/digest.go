package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"

	"gpureport/ingest"
	"gpureport/internal/batch"
	"gpureport/snapshot"
)

const digestUsage = `Usage:
  gpureport digest [flags] RUN_DIR...   digest the runs' snapshots into the cache
  gpureport digest --clear [--cache-dir DIR]   empty the digest cache

Each snapshot is read once and reduced to a small digest, stored in the
digest cache; a later 'gpureport RUN_DIR' reads the digests instead of the
snapshots. With --shard I/N only share I of N of the snapshots is digested,
so that N tasks of a Slurm job array or a Kubernetes indexed Job digest a
run too big for one machine in parallel, into a cache folder they share.

Flags:
`

// runDigest is `gpureport digest`: fill the digest cache, or clear it.
func runDigest(inv *invocation) int {
	var (
		cache     cacheOptions
		shardText string
		jobs      int
		quiet     bool
		clear     bool
	)
	cache.register(inv.fs)
	inv.fs.StringVar(&shardText, "shard", "", "digest only share `I/N` of each run's snapshots (0 <= I < N), split by a hash of each file's path under its run")
	inv.fs.IntVar(&jobs, "j", 0, "digest `N` files at once (default: one per CPU)")
	quietFlag(inv.fs, &quiet)
	inv.fs.BoolVar(&clear, "clear", false, "remove every digest from the cache folder and exit")
	dec := addDecodeFlags(inv.fs)
	positional, code, ok := inv.parse()
	if !ok {
		return code
	}
	if err := cache.parse(); err != nil {
		return usageError(inv.stderr, "--cache-size: %v", err)
	}
	if cache.noCache || cache.noDigest {
		return usageError(inv.stderr, "--no-cache and --no-digest make no sense for digest")
	}
	dopt, err := dec.options()
	if err != nil {
		return usageError(inv.stderr, "%v", err)
	}
	sh, err := batch.ParseShard(shardText)
	if err != nil {
		return usageError(inv.stderr, "--shard: %v", err)
	}
	dc, err := cache.open()
	if err != nil {
		fmt.Fprintf(inv.stderr, "gpureport digest: no cache folder: %v\n", err)
		return exitWriteFailed
	}
	if clear {
		if len(positional) > 0 {
			return usageError(inv.stderr, "--clear takes no RUN_DIR")
		}
		if err := dc.Clear(); err != nil {
			fmt.Fprintf(inv.stderr, "gpureport digest: %v\n", err)
			return exitWriteFailed
		}
		fmt.Fprintf(inv.stdout, "cleared %s\n", dc.Dir)
		return exitOK
	}
	if len(positional) == 0 {
		return usageError(inv.stderr, "missing RUN_DIR")
	}
	log := newLogger(inv.stderr, slog.LevelWarn)
	prog := newProgress(inv.stderr, quiet)
	worst := exitOK
	for _, dir := range positional {
		n, err := digestRun(inv.ctx, dir, dc, sh, jobs, dopt, prog, log)
		if inv.ctx.Err() != nil {
			fmt.Fprintln(inv.stderr, "gpureport: interrupted")
			return exitInterrupted
		}
		if err != nil {
			fmt.Fprintf(inv.stderr, "gpureport digest: %s: %v\n", dir, err)
			worst = max(worst, exitNothingUsable)
			continue
		}
		fmt.Fprintf(inv.stdout, "%s: shard %s: %d snapshots, %d digested, %d already cached, %d skipped; cache %s\n",
			dir, sh, n.files, n.files-n.cached-n.failed, n.cached, n.failed, dc.Dir)
	}
	if _, err := dc.Evict(); err != nil {
		log.Warn("digest cache not trimmed", "dir", dc.Dir, "err", err)
	}
	return worst
}

// digestCounts counts the files of one run's shard.
type digestCounts struct {
	files, cached, failed int
}

// digestRun digests the snapshots of run dir that belong to shard sh.
func digestRun(ctx context.Context, dir string, dc *ingest.DigestCache, sh batch.Shard, jobs int, opt snapshot.DecodeOptions, prog *progress, log *slog.Logger) (digestCounts, error) {
	cands, _, err := ingest.Discover(dir, nil)
	if err != nil {
		return digestCounts{}, err
	}
	var mine []ingest.Candidate
	lp := ingest.LoadProgress{}
	for _, c := range cands {
		if c.Kind == ingest.KindSnapshot && sh.Has(c.Rel) {
			mine = append(mine, c)
			lp.TotalBytes += c.Bytes
		}
	}
	lp.Total = len(mine)
	n := digestCounts{files: len(mine)}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	prog.start("digesting " + dir)
	prog.updateLoad(lp)
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		work = make(chan ingest.Candidate)
	)
	for range min(jobs, max(len(mine), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				cached, err := ingest.CacheDigest(dc, c, opt)
				mu.Lock()
				switch {
				case err != nil:
					n.failed++
					log.Warn("skipped input", "file", filepath.Join(dir, filepath.FromSlash(c.Rel)), "reason", err)
				case cached:
					n.cached++
					lp.Cached++
				}
				lp.Done++
				lp.DoneBytes += c.Bytes
				lp.Rel = c.Rel
				prog.updateLoad(lp)
				mu.Unlock()
			}
		}()
	}
	for _, c := range mine {
		if ctx.Err() != nil {
			break
		}
		work <- c
	}
	close(work)
	wg.Wait()
	prog.finish()
	return n, ctx.Err()
}
