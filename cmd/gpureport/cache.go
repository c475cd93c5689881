package main

import (
	"flag"

	"gpureport/ingest"
	"gpureport/internal/units"
)

// cacheOptions choose how snapshots are read: as digests through the
// on-disk digest cache (the default), as digests without the cache, or
// decoded in full and kept (the pre-digest path, for comparison).
type cacheOptions struct {
	// noCache digests every snapshot afresh and stores nothing.
	noCache bool
	// noDigest keeps every snapshot decoded in full (memory grows with the
	// run); it implies noCache.
	noDigest bool
	// dir is the cache folder; "" means ingest.DefaultDigestCacheDir.
	dir string
	// size is the --cache-size text; bytes its value.
	size  string
	bytes int64
}

// register adds the cache flags to fs.
func (c *cacheOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.noCache, "no-cache", false, "neither read nor write the digest cache: digest every snapshot afresh")
	fs.BoolVar(&c.noDigest, "no-digest", false, "keep every snapshot decoded in full instead of digesting it (memory grows with the run; for comparison)")
	fs.StringVar(&c.dir, "cache-dir", "", "digest cache folder `DIR` (default: gpureport/digests under the user cache folder, e.g. ~/.cache)")
	fs.StringVar(&c.size, "cache-size", "1GiB", "bound on the digest cache's size on disk, `SIZE`; the least recently used digests go first")
}

// parse checks the flag values.
func (c *cacheOptions) parse() error {
	b, err := units.ParseSize(c.size)
	if err != nil {
		return err
	}
	c.bytes = b
	return nil
}

// open returns the digest cache to use, or nil with --no-cache or
// --no-digest.
func (c *cacheOptions) open() (*ingest.DigestCache, error) {
	if c.noCache || c.noDigest {
		return nil, nil
	}
	dir := c.dir
	if dir == "" {
		d, err := ingest.DefaultDigestCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return &ingest.DigestCache{Dir: dir, MaxBytes: c.bytes}, nil
}
