// Package labels is the schema of a labelled corpus's labels.json, the
// one definition shared by the generator that writes it (internal/gen)
// and the evaluation that scores verdicts against it (internal/eval).
// Each side adds its own truth: the generator all it measured, the
// evaluation the part it breaks scores down by.
package labels

// File is labels.json: the ground truth of a corpus whose cases are of
// type C (a Case plus the side's truth).
type File[C any] struct {
	// Generator names the program that wrote the corpus.
	Generator string `json:"generator"`
	// Seed is the corpus seed.
	Seed uint64 `json:"seed"`
	// Cases are the labelled runs.
	Cases []C `json:"cases"`
}

// Case is what every side knows of one case (one run directory).
type Case struct {
	// Name is the case directory ("leak-steady-003").
	Name string `json:"name"`
	// Scenario is the kind of case ("clean", "leak-steady", ...).
	Scenario string `json:"scenario"`
	// Seed reproduces the case: go run ./internal/gen run -scenario S -seed N.
	Seed uint64 `json:"seed"`
	// Expect is what truly happened in the simulation.
	Expect Flags `json:"expect"`
	// LeakSites are the planted leaks' innermost user frames as
	// basename:line (empty when nothing leaks).
	LeakSites []string `json:"leak_sites"`
	// LeakRank is the leaking rank of a multi-rank run (null otherwise).
	LeakRank *int `json:"leak_rank"`
	// CapacityBytes is the device memory (nvidia-smi memory.total), bytes.
	CapacityBytes int64 `json:"capacity_bytes"`
	// Description says in words what the run does.
	Description string `json:"description"`
}

// Flags are a case's true verdict flags and OOM cause, or a verdict's.
type Flags struct {
	// Leak is a leak of PyTorch tensors (Verdict.Leak).
	Leak bool `json:"leak"`
	// OutsideAllocatorLeak is growth outside the caching allocator.
	OutsideAllocatorLeak bool `json:"outside_allocator_leak"`
	// Fragmentation is cached memory lost to holes.
	Fragmentation bool `json:"fragmentation"`
	// OOM is an out-of-memory event.
	OOM bool `json:"oom"`
	// OOMCause is docs/design.md's cause of the OOM ("leak", "fragmentation" or
	// "capacity"); "" without an OOM or a cause.
	OOMCause string `json:"oom_cause,omitempty"`
}
