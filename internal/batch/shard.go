package batch

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard selects a deterministic part of the runs: run r belongs to shard
// Index of Count when FNV-1a(r.Rel) mod Count == Index. Rel is the run's
// path relative to its root, so every machine of a Slurm job array or a
// Kubernetes indexed Job agrees on the split whatever the mount point.
type Shard struct {
	// Index is 0-based: Slurm's $SLURM_ARRAY_TASK_ID with --array=0-(N-1),
	// Kubernetes' $JOB_COMPLETION_INDEX.
	Index int
	// Count is the number of shards; 1 means no sharding.
	Count int
}

// ParseShard parses --shard "i/n" (0 <= i < n); "" is the whole set.
func ParseShard(s string) (Shard, error) {
	if strings.TrimSpace(s) == "" {
		return Shard{0, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("invalid shard %q (want INDEX/COUNT, e.g. 0/8)", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("invalid shard %q (want INDEX/COUNT with 0 <= INDEX < COUNT, e.g. 0/8)", s)
	}
	return Shard{i, n}, nil
}

// Has reports whether the run with relative path rel is in the shard.
func (s Shard) Has(rel string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(rel))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// MarshalJSON writes the shard as "i/n".
func (s Shard) MarshalJSON() ([]byte, error) { return []byte(`"` + s.String() + `"`), nil }

// UnmarshalJSON reads "i/n".
func (s *Shard) UnmarshalJSON(b []byte) error {
	v, err := ParseShard(strings.Trim(string(b), `"`))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
