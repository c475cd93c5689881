package train

import (
	"fmt"
	"io"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/layout"
	"gpureport/internal/gen/pickle"
)

// BigSpec is the run behind the big benchmark snapshot: one H100 rank
// training a 12-block model under activation checkpointing (stacks of up
// to ~90 frames, Python and C++ interleaved) with 30 extra operators per
// block (about 300 distinct frame dicts), PyTorch 2.6.
func BigSpec() *Spec {
	return oneRankRun(&Spec{
		Name: "big",
		Seed: 1400000,
		GPU:  GPU{"NVIDIA H100 80GB HBM3", 81559},

		SitePackages: "/opt/conda/lib/python3.12/site-packages",
		Project:      "/workspace/llm-pretrain",
		Wrappers:     []string{"checkpoint"},

		Layers: 12, Hidden: 2048, Heads: 16, Vocab: 50304, Batch: 4,
		SeqMin: 1024, SeqMax: 2048, ExtraOps: 30,

		Snapshots: 1, Interval: 1, FirstDump: 1 << 30,
		StepSeconds: 1.1,
		ContextMiB:  520,
		SmiInterval: 5,
	})
}

// BigResult describes a written big snapshot.
type BigResult struct {
	// Entries is the trace length; Events all events simulated (the first
	// Events-Entries were evicted from the ring).
	Entries int
	Events  int64
	// Steps simulated; Segments and Blocks in the final state.
	Steps            int
	Segments, Blocks int
	// Frames is the number of distinct frame dicts; MaxDepth the deepest
	// stack.
	Frames, MaxDepth int
	// Bytes written.
	Bytes int64
}

// WriteBig writes one snapshot (pickle protocol 4, timed layout) whose
// device 0 trace holds the last entries events of the BigSpec run. It
// simulates twice: once to learn the final segments and how many events
// there are, once more to stream the trace window, so memory stays
// bounded whatever entries is.
func WriteBig(w io.Writer, entries int) (*BigResult, error) {
	return WriteBigSpec(w, BigSpec(), entries)
}

// WriteBigSpec is WriteBig for a variant of BigSpec: ExtraOps sets how
// many distinct call sites (and so distinct frame dicts and stacks) the
// trace has, about 10 per extra operator.
func WriteBigSpec(w io.Writer, spec *Spec, entries int) (*BigResult, error) {
	if entries < 1 {
		return nil, fmt.Errorf("entries %d: want at least 1", entries)
	}
	spec.MaxEntries = entries
	prog, err := newSpecProgram(spec)
	if err != nil {
		return nil, err
	}
	const maxSteps = 1 << 20
	target := int64(entries) + int64(entries)/20 + 1

	// Pass 1: count events, keep the final state.
	var events int64
	s1 := newSim(spec, "", prog, func(*alloc.TraceEntry) { events++ })
	if err := s1.startNoRing(maxSteps); err != nil {
		return nil, err
	}
	steps := 0
	for events < target {
		if steps >= maxSteps {
			return nil, fmt.Errorf("no %d events in %d steps", target, maxSteps)
		}
		if stop, err := s1.doStep(steps, nil); err != nil || stop {
			return nil, fmt.Errorf("big run stopped at step %d: %v", steps, err)
		}
		steps++
	}
	opt := s1.era.Layout
	opt.Devices = 1
	b := layout.NewBuilder(opt)
	a1 := s1.ranks[0].a
	segs := b.Segments([]layout.Device{{Alloc: a1}})
	res := &BigResult{Entries: entries, Events: events, Steps: steps}
	for _, sg := range a1.Segments() {
		res.Segments++
		res.Blocks += len(sg.Blocks())
	}
	s1 = nil

	// Pass 2: the same run again, streaming the last entries events.
	cw := &countWriter{w: w}
	enc, err := pickle.NewEncoder(cw, pickle.Options{Protocol: 4})
	if err != nil {
		return nil, err
	}
	enc.Start()
	top := enc.BeginDict(4)
	enc.Value(b.Key("segments"))
	enc.Value(segs)
	enc.Next(&top)
	enc.Value(b.Key("device_traces"))
	devs := enc.BeginList(1)
	tl := enc.BeginList(entries)
	skip := events - int64(entries)
	var idx, windowStart int64
	s2 := newSim(spec, "", prog, func(e *alloc.TraceEntry) {
		if idx >= skip {
			if idx == skip {
				windowStart = e.TimeUS
			}
			if c, ok := e.Ctx.(*layout.Context); ok && len(c.Frames) > res.MaxDepth {
				res.MaxDepth = len(c.Frames)
			}
			b.WriteEntry(enc, e)
			enc.Next(&tl)
		}
		idx++
	})
	if err := s2.startNoRing(maxSteps); err != nil {
		return nil, err
	}
	for step := 0; step < steps; step++ {
		if _, err := s2.doStep(step, nil); err != nil {
			return nil, err
		}
	}
	if idx != events {
		return nil, fmt.Errorf("second pass saw %d events, first %d: the simulation is not deterministic", idx, events)
	}
	enc.End(&tl)
	enc.Next(&devs)
	enc.End(&devs)
	enc.Next(&top)
	enc.Value(b.Key("allocator_settings"))
	enc.Value(b.Settings(layout.Settings{MaxSplitSize: -1}))
	enc.Next(&top)
	var anns []layout.Annotation
	for _, an := range s2.ranks[0].anns {
		if an.TimeUS >= windowStart {
			anns = append(anns, an)
		}
	}
	enc.Value(b.Key("external_annotations"))
	enc.Value(b.Annotations(anns))
	enc.Next(&top)
	enc.End(&top)
	if err := enc.Finish(); err != nil {
		return nil, err
	}
	res.Frames = b.FrameDicts()
	res.Bytes = cw.n
	return res, nil
}

// startNoRing starts the simulation without a trace ring (the events go
// to onTrace only).
func (s *sim) startNoRing(steps int) error {
	me := s.spec.MaxEntries
	s.spec.MaxEntries = 0
	err := s.start(steps)
	s.spec.MaxEntries = me
	return err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
