package analyze

import (
	"math"

	"gpureport/analyze/roles"
	"gpureport/internal/units"
)

// A possible leak seen in one snapshot's trace. PyTorch's own recipe for
// finding a leak records the allocator's history for some iterations and
// dumps one snapshot at the end: a device with one snapshot (or too few
// for a trend) has no series to fit, but its trace shows what each
// allocation did within the window. Leak evidence is survival
// (docs/design.md): a block that outlives the steps around it. In one
// trace, a steady stream of allocations from one stack, each still alive
// at the dump while the steps around it make and free their own memory,
// is a candidate:
//
//   - the stream is the group's never-freed bytes, counted by the end of
//     each of WindowParts equal parts of the window (LiveGroup.Spread),
//     fitted under the leak suspects' trend rules (FitTrend at
//     DefaultSuspectAlpha, growth measured against the device's allocated
//     memory at the dump). Those rules already set aside what is no
//     leak: the model's parameters or the optimizer's state made at the
//     start of the window and kept (one step, or a warm-up prefix), a
//     warm-up allocation once per step for the first steps that then
//     stops (a ramp that flattened out: persistence, not stopped), a
//     cache that filled and stays full;
//   - the stream holds at least the growth a series' trend calls one that
//     matters (the rules' MinGrowthBytes, 8 MiB, and MinGrowthShare, 1%,
//     of the allocated memory at the dump): a smaller stream needs over a
//     hundred such windows to add what the device holds, and a bounded
//     one (a deque of scalar losses) never does;
//   - the stream has at least DefaultMinPoints blocks, and the window
//     shows at least DefaultMinPoints steps beside it (LiveGroup.Turnovers:
//     the window's memory less the group's falls back by half its range
//     that often, each fall freeing more than a copy's source of what the
//     stream kept since the last: a checkpoint loaded shard by shard,
//     each shard's temporary freed once copied into its parameter, shows
//     no step): the stream outlived as many steps as a trend needs
//     snapshots, each one observation of survival. A window inside one
//     step (a forward pass dumped at an OOM, whose layers' activations
//     pile up evenly and are all alive at the dump) shows no step, as the
//     other stacks' activations pile up beside the group's, and is no
//     leak. Limit: a pass whose saved tensors all come from one stack,
//     with temporaries freed between them, looks like steps;
//   - the trace has times (a rate needs them) and agrees with its
//     snapshot's segments (Peak.LowerBound: a trimmed file's window
//     leaves allocations alive that the segments do not hold);
//   - the group matches no suppression (the user's, and the built-in
//     benign patterns of BuiltinSuppression);
//   - its stack is not the optimizer's state by a frame rule of the roles
//     (LiveGroup.MadeOnce: torch.optim's _init_group or init_state, an
//     8-bit optimizer's state, ZeRO's fp32 partitions): an optimizer makes a
//     parameter's state there once, at the parameter's first step, so the
//     stream is bounded by the model whatever the window shows (Adam's
//     state made lazily as layers are unfrozen one by one, a window that
//     begins before the first step). State a hand-written optimizer makes
//     in its step, which only its lifetime calls state, stays a
//     candidate: the same stack would make a leak in the step.
//
// It is decided only for a device whose allocated trend is insufficient:
// with enough snapshots, the series' survival decides, and its verdict
// stays as it is. A candidate is no leak on its own: one window cannot
// tell a stream that grows for ever from a structure that fills once
// within it (a KV cache filled token by token in one generation, a
// queue filling), which a later snapshot would show full and flat. It sets no flag; the verdict
// stays "Not enough data" (info), naming the candidate and how to
// confirm it (verdict.go: ReasonWindowLeak).

// windowLeak decides device d's leak seen in its trace window, nil when
// there is none (see above). rules are the device's trend rules, suppress
// the user's suppressions and builtins whether the built-in ones apply.
func windowLeak(d *Device, rules TrendRules, suppress []Suppression, builtins bool) *WindowLeak {
	tw := d.TraceWindow
	if d.Host || tw == nil || tw.Peak == nil || tw.Peak.LowerBound || tw.Start.IsZero() || !tw.End.After(tw.Start) || len(d.Points) == 0 {
		return nil
	}
	if at := d.Trend(MetricAllocated); at == nil || at.State != StateInsufficient {
		return nil
	}
	hours := tw.End.Sub(tw.Start).Hours()
	x := make([]float64, WindowParts)
	for k := range x {
		x[k] = hours * float64(k+1) / WindowParts
	}
	r := rules
	r.Alpha = DefaultSuspectAlpha
	r.RefLevel = float64(d.Points[len(d.Points)-1].Usage.Allocated)
	floor := math.Max(r.MinGrowthBytes, r.MinGrowthShare*r.RefLevel)
	for i := range tw.NeverFreed {
		g := &tw.NeverFreed[i]
		if g.Blocks < DefaultMinPoints || g.Turnovers < DefaultMinPoints || len(g.Spread) != WindowParts || float64(g.Bytes) < floor {
			continue
		}
		if matchSuppression(suppress, g.Signature, g.Stack) != "" {
			continue
		}
		if builtins && BuiltinSuppression(&Group{Signature: g.Signature, Stack: g.Stack}) != "" {
			continue
		}
		if g.MadeOnce() {
			continue
		}
		y := make([]float64, WindowParts)
		for k, b := range g.Spread {
			y[k] = float64(b)
		}
		t := FitTrend("never_freed_bytes", units.PerHour, x, y, r)
		if t.State != StateGrowing {
			continue
		}
		return &WindowLeak{Path: tw.Path, Group: i, Trend: t, Steps: g.Turnovers, PerStep: float64(g.Bytes) / float64(g.Turnovers)}
	}
	return nil
}

// MadeOnce reports whether the group's stack is the optimizer's state by
// a frame rule of the roles (roles.FrameRule: torch.optim's _init_group
// or init_state, an 8-bit optimizer's state, ZeRO's fp32 partitions),
// which an optimizer makes once a parameter, at its first step: memory
// bounded by the model, however steadily a window sees it made.
func (g *LiveGroup) MadeOnce() bool {
	role, _, ok := roles.FrameRule(g.Stack)
	return ok && role == roles.OptimizerState
}

// WindowLeak is a possible leak seen in one snapshot's trace, a
// candidate that more snapshots must confirm: a steady stream of
// allocations from one stack, all still alive at the dump, over steps
// that freed their own memory (windowleak.go).
type WindowLeak struct {
	// Path is the snapshot whose trace shows it.
	Path string
	// Group is the stream's group in the device's TraceWindow.NeverFreed.
	Group int
	// Trend is the growth of the group's never-freed bytes over the
	// window, per hour of its time.
	Trend Trend
	// Steps are the training steps the window shows beside the stream
	// (LiveGroup.Turnovers); PerStep the stream's bytes over them, bytes
	// per step.
	Steps   int
	PerStep float64
}

// PerSecond is the stream's growth in bytes per second of the window.
func (w *WindowLeak) PerSecond() float64 {
	if w == nil || math.IsNaN(w.Trend.Slope) {
		return math.NaN()
	}
	return w.Trend.Slope / 3600
}
