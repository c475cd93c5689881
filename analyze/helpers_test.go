package analyze

import (
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// Frame constructors for tests: a user frame under a project directory, a
// torch frame under site-packages, and a C++ frame.
func userFrame(file string, line int, fn string) snapshot.Frame {
	return snapshot.Frame{File: "/home/alice/proj/" + file, Line: line, Name: fn}
}

func torchFrame(file string, line int, fn string) snapshot.Frame {
	return snapshot.Frame{File: "/opt/conda/lib/python3.11/site-packages/torch/" + file, Line: line, Name: fn}
}

func cppFrame(fn string) snapshot.Frame {
	return snapshot.Frame{File: "??", Line: 0, Name: fn}
}

// stackAt returns a realistic stack whose innermost user frame is
// file:line in function fn, called from train.py's main loop.
func stackAt(file string, line int, fn string) []snapshot.Frame {
	return []snapshot.Frame{
		cppFrame("torch::unwind::unwind()"),
		cppFrame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc"),
		torchFrame("nn/modules/module.py", 1750, "_call_impl"),
		userFrame(file, line, fn),
		torchFrame("nn/modules/module.py", 1739, "_wrapped_call_impl"),
		userFrame("train.py", 120, "main"),
		{File: "<frozen runpy>", Line: 88, Name: "_run_code"},
	}
}

// blk is a block for snapBuilder: size, state and stack.
type blk struct {
	size   int64
	state  snapshot.BlockState
	frames []snapshot.Frame
	req    int64 // requested size; 0 means size
}

func live(size int64, frames []snapshot.Frame) blk {
	return blk{size: size, state: snapshot.StateActiveAllocated, frames: frames}
}

func free(size int64) blk { return blk{size: size, state: snapshot.StateInactive} }

// snapBuilder builds an snapshot.Snapshot by hand.
type snapBuilder struct {
	s    *snapshot.Snapshot
	next uint64
}

func newSnap() *snapBuilder {
	return &snapBuilder{s: &snapshot.Snapshot{Generation: snapshot.GenTimed}, next: 0x7f0000000000}
}

func (b *snapBuilder) stack(frames []snapshot.Frame) snapshot.StackID {
	if len(frames) == 0 {
		return snapshot.NoStack
	}
	ids := make([]snapshot.FrameID, len(frames))
	for i, f := range frames {
		ids[i] = b.s.Stacks.InternFrame(f)
	}
	return b.s.Stacks.InternStack(ids)
}

// segment adds a segment of device dev made of blocks; the pool follows
// the size (small when ≤ 2 MiB).
func (b *snapBuilder) segment(dev int, blocks ...blk) *snapBuilder {
	seg := snapshot.Segment{Device: dev, Address: b.next, Pool: snapshot.PoolLarge}
	addr := b.next
	for _, x := range blocks {
		req := x.req
		if req == 0 {
			req = x.size
		}
		bl := snapshot.Block{Address: addr, Size: x.size, RequestedSize: req, State: x.state, Stack: b.stack(x.frames)}
		seg.Blocks = append(seg.Blocks, bl)
		seg.TotalSize += x.size
		if x.state == snapshot.StateActiveAllocated {
			seg.AllocatedSize += x.size
		}
		if x.state.Active() {
			seg.ActiveSize += x.size
			seg.RequestedSize += req
		}
		addr += uint64(x.size)
	}
	if seg.TotalSize <= 2<<20 {
		seg.Pool = snapshot.PoolSmall
	}
	b.s.Segments = append(b.s.Segments, &seg)
	b.next = (addr + 0x1fffff) &^ 0x1fffff
	b.next += 0x200000
	return b
}

// event appends a trace event on device dev.
func (b *snapBuilder) event(dev int, a snapshot.Action, addr uint64, size int64, timeUS int64, frames []snapshot.Frame) *snapBuilder {
	for len(b.s.Traces) <= dev {
		b.s.Traces = append(b.s.Traces, []snapshot.TraceEntry{})
	}
	b.s.Traces[dev] = append(b.s.Traces[dev], snapshot.TraceEntry{Action: a, Addr: addr, Size: size, TimeUS: timeUS, Stack: b.stack(frames)})
	return b
}

func (b *snapBuilder) done() *snapshot.Snapshot {
	b.s.Stacks.Seal()
	return b.s
}

// file wraps a snapshot as a run's file at a step.
func file(s *snapshot.Snapshot, path string, step int64, rank int) *ingest.SnapshotFile {
	return &ingest.SnapshotFile{
		Source:   input.Source{Path: path, ModTime: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(step) * time.Second)},
		Step:     step,
		Rank:     rank,
		Snapshot: s,
	}
}

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// hasEvidence reports whether a suspect's evidence has an observation of
// kind k.
func hasEvidence(sp *Suspect, k EvidenceKind) bool {
	for _, e := range sp.Evidence {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// reasonKinds lists the kinds of the verdict's reasons, in order.
func reasonKinds(v Verdict) []ReasonKind {
	out := make([]ReasonKind, len(v.Reasons))
	for i, r := range v.Reasons {
		out[i] = r.Kind
	}
	return out
}

// noteKinds lists the kinds of the notes, in order.
func noteKinds(ns []Note) []NoteKind {
	out := make([]NoteKind, len(ns))
	for i, n := range ns {
		out[i] = n.Kind
	}
	return out
}
