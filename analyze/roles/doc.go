// Package roles says what holds a device's memory: the role of every live
// block of a snapshot (parameters, gradients, optimizer state,
// activations, temporaries, inputs, workspace, CUDA-graph pools, other,
// unknown), the evidence that decided it, the kind of each memory pool,
// and, at a capacity OOM, what each large role would free if changed.
//
// A block's role is decided, in this order, by:
//
//  1. a user label: the text _annotate_tensor put on the block (latest
//     first), the user_metadata _set_memory_metadata had set when it was
//     allocated, or an FX node that augment_with_fx_traces named on one of
//     its frames. A label decides when it names a role (label.go); labels
//     that do not are kept on the decision and the rules below decide;
//  2. its pool: a block in a CUDA-graph or cudagraph-trees private pool is
//     graph_pools memory (pools.go);
//  3. a frame rule: a pattern of its allocation stack that PyTorch or a
//     library only allocates through for one role (rules.go: the
//     AccumulateGrad node, an optimizer's state initialisation,
//     nn.Module._apply, FSDP, ZeRO and Megatron internals, mixed
//     precision's fp32 master weights, cuBLAS/cuDNN/NCCL
//     workspaces, data loaders);
//  4. its lifetime: the stack names a phase (forward, backward, the
//     optimizer step; activation checkpointing's recomputation, forward
//     run inside backward, is forward) and the trace says how long the
//     block lived: an
//     allocation freed before the next allocation from another call site
//     died inside its operation and is a temporary; one that outlived it
//     is an activation (forward), a gradient (backward: the autograd
//     engine hands a node's output to AccumulateGrad, which keeps it as
//     .grad) or optimizer state (the step). Without a trace a block alive
//     at the dump has outlived its operation (lifetime.go);
//  5. otherwise a stack with Python frames is other, and a block without
//     frames is unknown, with why: allocated before the trace's window
//     (before recording began, or before the ring buffer's oldest event),
//     frames not recorded, or no trace to tell.
//
// Classify works on any moment a caller can rebuild: a snapshot's own
// state (ClassifySnapshot, on a full snapshot or a digest) or the live
// set at an event of the trace (the trace window's peak).
//
// The rules follow PyTorch's own memory categories
// (torch/profiler/_memory_profiler.py, torch/distributed/_tools/
// mem_tracker.py); docs/roles.md lists every rule with the source it
// mirrors and the versions it holds for. The package imports snapshot
// and analyze/frames only.
package roles
