package train

import (
	"errors"
	"fmt"
	"time"

	"gpureport/internal/gen/layout"
)

// Phase is the point within a training step at which snapshots are
// dumped.
type Phase string

// Dump phases.
const (
	// PhaseStart dumps before the batch is loaded.
	PhaseStart Phase = "start"
	// PhaseAfterForward dumps after the loss is computed (activations
	// live).
	PhaseAfterForward Phase = "after-forward"
	// PhaseAfterBackward dumps after backward (gradients live).
	PhaseAfterBackward Phase = "after-backward"
	// PhaseEnd dumps after optimizer.step() and zero_grad().
	PhaseEnd Phase = "end"
	// PhaseRandom dumps at a random one of the four points each time (a
	// timer thread, not the training loop, triggers the dump).
	PhaseRandom Phase = "random"
)

func (p Phase) valid() bool {
	switch p {
	case PhaseStart, PhaseAfterForward, PhaseAfterBackward, PhaseEnd, PhaseRandom:
		return true
	}
	return false
}

// GPU is a device model as nvidia-smi names it.
type GPU struct {
	Name     string
	TotalMiB int64
}

// GPUs are the device models the generator draws from (capacities from
// nvidia-smi memory.total).
func GPUs() []GPU {
	return []GPU{
		{"Tesla V100-SXM2-16GB", 16384},
		{"NVIDIA A10G", 23028},
		{"NVIDIA GeForce RTX 4090", 24564},
		{"Tesla V100S-PCIE-32GB", 32768},
		{"NVIDIA A100-SXM4-40GB", 40960},
		{"NVIDIA L40S", 46068},
		{"NVIDIA A100-SXM4-80GB", 81920},
		{"NVIDIA H100 80GB HBM3", 81559},
	}
}

// Leak plants a leak: a tensor allocated at Site and kept forever.
type Leak struct {
	// Site is the leak template, by innermost user frame (LeakSites).
	Site string
	// Bytes is the size of each leaked tensor.
	Bytes int64
	// Every leaks on steps StartStep, StartStep+Every, ...
	Every int
	// Mode is how the leak keeps its bytes (LeakAppend, LeakConcat).
	Mode LeakMode
	// StartStep is the first leaking step.
	StartStep int
	// BurstPeriod and BurstLen make the leak intermittent: it happens only
	// on steps whose (step - StartStep) % BurstPeriod < BurstLen.
	BurstPeriod, BurstLen int
}

// leaksAt reports whether the leak fires on step.
func (l *Leak) leaksAt(step int) bool {
	if l == nil || step < l.StartStep {
		return false
	}
	d := step - l.StartStep
	if l.BurstPeriod > 0 && d%l.BurstPeriod >= l.BurstLen {
		return false
	}
	return d%max(l.Every, 1) == 0
}

// OneTime allocates a buffer once, mid-run, and keeps it (not a leak).
type OneTime struct {
	Site  string
	Step  int
	Bytes int64
}

// Frag plants fragmentation, the way a bucketed sequence-length
// curriculum produces it. Every step a large temporary is allocated whose
// size grows in Stages levels from BigStart to BigEnd over the planned
// steps (and on beyond them); each level's size is just over a 2 MiB
// boundary, so its new segment keeps a free remainder of 1.2-1.8 MiB. A
// small long-lived tensor (a cache of Pins entries, oldest freed) is
// allocated in exactly that remainder when a level starts, so the segment
// stays in use after the temporary is freed, while the next, larger level
// no longer fits in it. Reserved and inactive memory grow with every
// level, allocated memory stays flat, and the free memory is held in
// holes smaller than the current request.
type Frag struct {
	BigStart, BigEnd int64
	Stages, Pins     int
}

// LeakMode is how a planted leak keeps its bytes.
type LeakMode string

// Leak modes.
const (
	// LeakAppend keeps a new tensor at every leak event (a list that is
	// appended to and never cleared): the default.
	LeakAppend LeakMode = ""
	// LeakConcat re-creates one history tensor bigger at every leak event
	// (torch.cat([history, x])): the old one is freed, so no block
	// survives, but the one that is alive keeps growing.
	LeakConcat LeakMode = "concat"
)

// BoundedKind is a kind of bounded container of recent tensors.
type BoundedKind string

// Bounded container kinds.
const (
	// BoundedWindow is a rolling window (deque(maxlen=Cap)) of the last
	// steps' outputs, appended every step.
	BoundedWindow BoundedKind = "window"
	// BoundedReplay is a replay buffer that fills to Cap entries and
	// then overwrites its oldest.
	BoundedReplay BoundedKind = "replay"
	// BoundedEvalCache keeps the outputs of the last evaluations: Add
	// generated outputs every Every steps, the oldest dropped beyond Cap.
	BoundedEvalCache BoundedKind = "eval-cache"
)

// Bounded plants a bounded container of recent tensors (not a leak):
// every Every steps Add tensors are appended, and once it holds Cap the
// oldest are dropped. Each tensor's size is log-normal (median Median
// bytes, Sigma the standard deviation of its log: a heavy tail, like
// generated or unpadded sequence lengths), truncated at Max.
type Bounded struct {
	Kind            BoundedKind
	Cap, Add, Every int
	Median, Max     int64
	Sigma           float64
}

// KVPhases plants periodic generation (or evaluation) phases: every Every
// steps, a phase of Len steps runs generation after the training step, in
// which each of Layers key/value caches is re-created Tokens tokens longer
// (torch.cat) at every step, from a prompt of Prompt tokens; the caches
// are freed when the phase ends. TokenBytes is one token's bytes in one
// layer's cache. Not a leak: the memory goes when the phase does.
type KVPhases struct {
	Every, Len, Layers, Tokens, Prompt int
	TokenBytes                         int64
}

// GraphCapture plants CUDA graph captures (or torch.compile's cudagraph
// trees): at each of Steps, a graph is captured into a private pool of its
// own, which keeps Blocks static tensors of Bytes in all alive for the
// rest of the run, beside the capture's freed intermediates. Compiled
// marks torch.compile (reduce-overhead) frames rather than a
// torch.cuda.graph capture in the user's code. Captured once, memory is
// flat after; twice, it steps once more. Not a leak.
type GraphCapture struct {
	Steps    []int
	Bytes    int64
	Blocks   int
	Compiled bool
}

// HeavyRank makes one rank hold more than the others: at its first step,
// rank Rank keeps Blocks tensors of Bytes in all for the rest of the run
// (rank 0 gathering the other ranks' outputs for evaluation or logging).
type HeavyRank struct {
	Rank   int
	Bytes  int64
	Blocks int
}

// Spec describes one simulated run completely: the same Spec always
// produces the same files.
type Spec struct {
	// Name names the run (the case name in a corpus).
	Name string
	// Seed drives every random choice of the simulation.
	Seed uint64
	// Start is the wall-clock time (UTC) of step 0.
	Start time.Time

	// GPU is the device model; Ranks the number of processes (one GPU
	// each; 1 writes snapshots at the top of the run directory, more
	// write rank0/, rank1/, ...).
	GPU   GPU
	Ranks int

	// Version is the PyTorch version imitated (see Eras).
	Version string
	// Protocol is the pickle protocol (2, 4 or 5; 0 means 4); Cpp the C++
	// pickler form; Container the file container.
	Protocol  int
	Cpp       bool
	Container layout.Container
	// Format overrides the era's layout (segments-list, or an older
	// layout); "" keeps the era's.
	Format layout.Format

	// SitePackages and Project are the directories in frame file names;
	// CppStacks records C++ frames; Wrappers wrap the model (ddp, fsdp,
	// checkpoint).
	SitePackages string
	Project      string
	CppStacks    bool
	Wrappers     []string

	// MaxEntries is the trace ring size (0: state only, no trace);
	// RecordAfterSetup starts recording after the model is on the GPU
	// (its parameters then have no stacks).
	MaxEntries       int
	RecordAfterSetup bool
	// Allocator settings.
	MaxSplitSize     int64
	Expandable       bool
	RoundupDivisions int

	// The model: a GPT with Layers blocks of width Hidden, Heads heads,
	// a vocabulary of Vocab, Batch sequences of SeqMin..SeqMax tokens per
	// step; activations ActBytes and parameters ParamBytes per element.
	Layers, Hidden, Heads, Vocab, Batch int
	SeqMin, SeqMax                      int
	// SeqGrowth lengthens sequences over the run (a curriculum): by the
	// last planned step they are (1+SeqGrowth) times longer.
	SeqGrowth            float64
	ActBytes, ParamBytes int
	// GradsToNone frees gradients in zero_grad (set_to_none=True).
	GradsToNone bool
	// ExtraOps adds that many element-wise operators (temporaries) to
	// every block.
	ExtraOps int

	// Snapshots dumps are taken every Interval steps starting at step
	// FirstDump, at Phase; TailSteps more steps run after the last dump.
	Snapshots, Interval, FirstDump, TailSteps int
	Phase                                     Phase
	// StepSeconds is the mean step time, StepJitter its relative spread.
	StepSeconds, StepJitter float64

	// Memory outside the allocator: the CUDA context, NCCL buffers (multi
	// rank) and a growth per hour (growth outside the allocator), MiB.
	ContextMiB, NCCLMiB  int64
	OutsideGrowthMiBHour float64
	// OutsideRank restricts outside growth to one rank (-1: all).
	OutsideRank int
	// OutsideStepSeconds makes the outside growth come in steps of that
	// many seconds (an NCCL communicator or eval buffer added at every
	// evaluation) instead of continuously; 0: continuous.
	OutsideStepSeconds float64
	// nvidia-smi logging: sample every SmiInterval seconds with
	// SmiNoiseMiB standard deviation, from SmiLead seconds before the
	// process starts to SmiTail seconds after it ends.
	SmiInterval, SmiNoiseMiB, SmiLead, SmiTail float64

	// Planted behaviour.
	Leak *Leak
	// LeakRank is the rank that leaks (0 with one rank).
	LeakRank        int
	OneTime         *OneTime
	EmptyCacheEvery int
	Frag            *Frag
	// Bounded, KV and Graph plant growth that is not a leak: a bounded
	// container of recent tensors, generation phases with KV caches, CUDA
	// graph captures (plants.go).
	Bounded *Bounded
	KV      *KVPhases
	Graph   *GraphCapture
	// Heavy makes one rank hold more than the others (not a leak).
	Heavy *HeavyRank
	// Accum is gradient accumulation: optimizer.step() and zero_grad()
	// run every Accum steps (each step of the simulation is then one
	// micro-batch); 0 or 1 every step.
	Accum int
	// AMP runs the forward pass under autocast: each block's weights are
	// cast to half precision for the forward, kept for backward and freed
	// there.
	AMP bool
	// UntilOOM keeps training past the planned dumps (up to MaxSteps)
	// until an allocation fails.
	UntilOOM bool
	MaxSteps int

	// Knobs are the per-case variations (knobs.go); their
	// zero values keep the original behaviour.
	Knobs Knobs
}

// Capacity returns the device memory in bytes.
func (s *Spec) Capacity() int64 { return s.GPU.TotalMiB << 20 }

// Steps returns the number of steps planned (without UntilOOM).
func (s *Spec) Steps() int {
	return s.FirstDump + (s.Snapshots-1)*s.Interval + 1 + s.TailSteps
}

// DumpSteps returns the steps at which snapshots are planned.
func (s *Spec) DumpSteps() []int {
	out := make([]int, s.Snapshots)
	for i := range out {
		out[i] = s.FirstDump + i*s.Interval
	}
	return out
}

// Validate checks the spec for values the simulation cannot use.
func (s *Spec) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Ranks < 1 || s.Ranks > 64 {
		bad("ranks %d out of 1..64", s.Ranks)
	}
	if s.GPU.TotalMiB < 1024 {
		bad("GPU memory %d MiB too small", s.GPU.TotalMiB)
	}
	if _, err := EraByVersion(s.Version); err != nil {
		bad("%v", err)
	}
	if s.Layers < 1 || s.Hidden < 64 || s.Heads < 1 || s.Vocab < 1 || s.Batch < 1 || s.SeqMin < 1 || s.SeqMax < s.SeqMin {
		bad("model dimensions out of range")
	}
	if s.ActBytes != 2 && s.ActBytes != 4 || s.ParamBytes != 2 && s.ParamBytes != 4 {
		bad("element sizes must be 2 or 4 bytes")
	}
	if s.Snapshots < 1 || s.Interval < 1 || s.FirstDump < 0 {
		bad("snapshot schedule out of range")
	}
	if !s.Phase.valid() {
		bad("unknown phase %q", s.Phase)
	}
	if s.StepSeconds <= 0 || s.SmiInterval <= 0 {
		bad("step time and nvidia-smi interval must be positive")
	}
	if s.Leak != nil && (s.Leak.Bytes <= 0 || s.LeakRank < 0 || s.LeakRank >= s.Ranks) {
		bad("leak of %d bytes on rank %d", s.Leak.Bytes, s.LeakRank)
	}
	if b := s.Bounded; b != nil && (b.Cap < 1 || b.Add < 1 || b.Every < 1 || b.Median < 1 || b.Max < b.Median || b.Sigma < 0) {
		bad("bounded container %+v", *b)
	}
	if kv := s.KV; kv != nil && (kv.Every < 2 || kv.Len < 1 || kv.Len >= kv.Every || kv.Layers < 1 || kv.TokenBytes < 1) {
		bad("KV phases %+v", *kv)
	}
	if g := s.Graph; g != nil && (len(g.Steps) == 0 || g.Bytes < 1 || g.Blocks < 1) {
		bad("graph capture %+v", *g)
	}
	if h := s.Heavy; h != nil && (h.Rank < 0 || h.Rank >= s.Ranks || h.Bytes < 1 || h.Blocks < 1) {
		bad("heavy rank %+v of %d", *h, s.Ranks)
	}
	if s.Accum < 0 {
		bad("gradient accumulation %d", s.Accum)
	}
	if s.UntilOOM && s.MaxSteps < s.Steps() {
		bad("max steps %d below the planned %d", s.MaxSteps, s.Steps())
	}
	if s.Protocol != 0 && (s.Protocol < 2 || s.Protocol > 5) {
		bad("protocol %d", s.Protocol)
	}
	if s.Cpp && s.Container == layout.Zip {
		bad("the C++ pickler form is not written by torch.save")
	}
	if err := s.Knobs.valid(s.Ranks); err != nil {
		bad("%v", err)
	}
	return errors.Join(errs...)
}
