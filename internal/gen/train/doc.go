// Package train drives the generator's simulated training runs: a Spec
// (the model's tensors, the leak and one-time sites, the dump cadence, the
// GPU and the knobs of each failure class) is run step by step through the
// simulated caching allocator (internal/gen/alloc), and Run writes the run
// directory a real job leaves behind: the snapshots (through
// internal/gen/layout and internal/gen/pickle), nvidia-smi logs and
// training logs. Scenarios and Draw make the labelled corpus's cases, and
// Judge writes the ground truth each case's labels.json entry holds;
// SampleSpec and BigSpec are the bundled sample run and the benchmarks'
// big snapshot.
//
// It holds no parsing and no analysis: gpureport's readers never import it.
package train
