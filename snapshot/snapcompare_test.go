package snapshot

import (
	"fmt"
	"reflect"
	"slices"
)

// diffSnapshots compares two decoded snapshots field by field, stacks by
// their frames (IDs depend on interning order), and describes the first
// difference ("" when equal).
func diffSnapshots(a, b *Snapshot) string {
	if a.Generation != b.Generation {
		return fmt.Sprintf("generation %q vs %q", a.Generation, b.Generation)
	}
	if len(a.Segments) != len(b.Segments) || (a.Segments == nil) != (b.Segments == nil) {
		return fmt.Sprintf("%d segments (nil %v) vs %d (nil %v)", len(a.Segments), a.Segments == nil, len(b.Segments), b.Segments == nil)
	}
	for i := range a.Segments {
		sa, sb := *a.Segments[i], *b.Segments[i]
		if !slices.Equal(a.Stacks.StackFrames(sa.Stack), b.Stacks.StackFrames(sb.Stack)) {
			return fmt.Sprintf("segments[%d] stack differs", i)
		}
		if len(sa.Blocks) != len(sb.Blocks) || (sa.Blocks == nil) != (sb.Blocks == nil) {
			return fmt.Sprintf("segments[%d]: %d blocks vs %d", i, len(sa.Blocks), len(sb.Blocks))
		}
		for j := range sa.Blocks {
			ba, bb := sa.Blocks[j], sb.Blocks[j]
			if !slices.Equal(a.Stacks.StackFrames(ba.Stack), b.Stacks.StackFrames(bb.Stack)) {
				return fmt.Sprintf("segments[%d].blocks[%d] stack differs", i, j)
			}
			ba.Stack, bb.Stack = 0, 0
			if ba != bb {
				return fmt.Sprintf("segments[%d].blocks[%d]: %+v vs %+v", i, j, ba, bb)
			}
		}
		sa.Stack, sb.Stack, sa.Blocks, sb.Blocks = 0, 0, nil, nil
		if !reflect.DeepEqual(sa, sb) {
			return fmt.Sprintf("segments[%d]: %+v vs %+v", i, sa, sb)
		}
	}
	if len(a.Traces) != len(b.Traces) || (a.Traces == nil) != (b.Traces == nil) {
		return fmt.Sprintf("%d traces (nil %v) vs %d (nil %v)", len(a.Traces), a.Traces == nil, len(b.Traces), b.Traces == nil)
	}
	for d := range a.Traces {
		ta, tb := a.Traces[d], b.Traces[d]
		if len(ta) != len(tb) || (ta == nil) != (tb == nil) {
			return fmt.Sprintf("device_traces[%d]: %d entries vs %d", d, len(ta), len(tb))
		}
		for i := range ta {
			ea, eb := ta[i], tb[i]
			if !slices.Equal(a.Stacks.StackFrames(ea.Stack), b.Stacks.StackFrames(eb.Stack)) {
				return fmt.Sprintf("device_traces[%d][%d] stack differs", d, i)
			}
			if why := diffEventMeta(a, b, &ea, &eb); why != "" {
				return fmt.Sprintf("device_traces[%d][%d]: %s", d, i, why)
			}
			ea.Stack, eb.Stack = 0, 0
			ea.Meta, eb.Meta, ea.Pool, eb.Pool = 0, 0, 0, 0
			if ea != eb {
				return fmt.Sprintf("device_traces[%d][%d]: %+v vs %+v", d, i, ea, eb)
			}
		}
	}
	if (a.HasHost()) != (b.HasHost()) {
		return fmt.Sprintf("host memory %v vs %v", a.HasHost(), b.HasHost())
	}
	if a.HasHost() {
		if (a.HostTrace == nil) != (b.HostTrace == nil) || (a.HostSegments == nil) != (b.HostSegments == nil) {
			return "host segments or trace present in one only"
		}
		ha, hb := a.Host(), b.Host()
		ha.Notes, hb.Notes = nil, nil
		if d := diffSnapshots(ha, hb); d != "" {
			return "host: " + d
		}
	}
	if !reflect.DeepEqual(a.Settings, b.Settings) {
		return fmt.Sprintf("settings %+v vs %+v", a.Settings, b.Settings)
	}
	if !reflect.DeepEqual(a.Annotations, b.Annotations) {
		return fmt.Sprintf("annotations %+v vs %+v", a.Annotations, b.Annotations)
	}
	if !reflect.DeepEqual(a.Notes, b.Notes) {
		return fmt.Sprintf("notes %v vs %v", a.Notes, b.Notes)
	}
	return ""
}

// diffEventMeta compares the user_metadata and pool id of two events by
// their text and pair (their indexes depend on interning order).
func diffEventMeta(a, b *Snapshot, ea, eb *TraceEntry) string {
	if ma, mb := a.MetaText(ea.Meta), b.MetaText(eb.Meta); ma != mb {
		return fmt.Sprintf("user_metadata %q vs %q", ma, mb)
	}
	pa, oka := a.PoolOf(ea)
	pb, okb := b.PoolOf(eb)
	if pa != pb || oka != okb {
		return fmt.Sprintf("pool %v (%v) vs %v (%v)", pa, oka, pb, okb)
	}
	return ""
}
