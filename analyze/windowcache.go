package analyze

import (
	"time"

	"gpureport/snapshot"
)

// The trace window's side entry was JSON: 177 KB for an ordinary
// snapshot (its 2,000 timeline points most of it), which a re-run wrote,
// read back to check, and read again in the analysis, 6 ms of JSON
// reflection on the re-run's longest path. It is varints now.

// windowFormat is the first byte of an encoded trace window. 2: each
// never-freed group's spread and turnovers, and the never-freed blocks.
// 3: turnovers no longer count a copy's source freed (maxCopyRatio), so
// a window cached under 2 holds turnovers this build would not count.
const windowFormat = 3

// windowWriter appends a trace window's fields to b.
type windowWriter struct{ varintWriter }

func (w *windowWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// count writes a list's length plus one, 0 for a nil list (a nil list and
// an empty one differ in the reports' JSON).
func (w *windowWriter) count(n int, isNil bool) {
	if isNil {
		w.uint(0)
		return
	}
	w.uint(uint64(n) + 1)
}

// time writes t as 0 for the zero time, else 1 and its Unix time in
// microseconds: every time of a window is time.UnixMicro(us).UTC(), and a
// time that is not does not read back the same, so its window is not
// kept (keepCheckedSide).
func (w *windowWriter) time(t time.Time) {
	if t.IsZero() {
		w.b = append(w.b, 0)
		return
	}
	w.b = append(w.b, 1)
	w.int(t.UnixMicro())
}

// encodeWindow writes tw as windowFormat, then: its path and entries, its
// start and end, its timeline (each point's index, time, allocated and
// reserved bytes as differences from the point before), the peak
// allocated bytes, the never-freed groups (each its signature's key,
// fingerprint, site, function, file and kind, its bytes and blocks, its
// stack's frames with their FX nodes, its user marks, its spread and its
// turnovers), their bytes and blocks,
// the unknown frees, and the peak (a flag, then its fields, its roles as
// encodeBreakdown writes them). Lists are written with their count plus
// one, 0 for nil.
func encodeWindow(tw *TraceWindow) ([]byte, error) {
	w := windowWriter{varintWriter{b: make([]byte, 0, 64+len(tw.Timeline)*8+len(tw.NeverFreed)*256)}}
	w.b = append(w.b, windowFormat)
	w.str(tw.Path)
	w.int(int64(tw.Entries))
	w.time(tw.Start)
	w.time(tw.End)
	w.count(len(tw.Timeline), tw.Timeline == nil)
	var prev TimelinePoint
	for _, p := range tw.Timeline {
		w.int(int64(p.Index - prev.Index))
		w.int(p.TimeUS - prev.TimeUS)
		w.int(p.Allocated - prev.Allocated)
		w.int(p.Reserved - prev.Reserved)
		prev = p
	}
	w.int(tw.PeakAllocated)
	w.count(len(tw.NeverFreed), tw.NeverFreed == nil)
	for i := range tw.NeverFreed {
		g := &tw.NeverFreed[i]
		w.str(g.Key)
		w.str(g.Fingerprint)
		w.str(g.Site)
		w.str(g.Function)
		w.str(g.File)
		w.str(string(g.Kind))
		w.int(g.Bytes)
		w.int(int64(g.Blocks))
		w.count(len(g.Stack), g.Stack == nil)
		for _, f := range g.Stack {
			w.str(f.File)
			w.int(int64(f.Line))
			w.str(f.Name)
			w.str(f.FX.Op)
			w.str(f.FX.Name)
			w.str(f.FX.Target)
			w.str(f.FX.Trace)
		}
		w.count(len(g.User), g.User == nil)
		for _, u := range g.User {
			w.bool(u)
		}
		w.count(len(g.Spread), g.Spread == nil)
		for _, b := range g.Spread {
			w.int(b)
		}
		w.int(int64(g.Turnovers))
	}
	w.int(tw.NeverFreedBytes)
	w.int(int64(tw.NeverFreedBlocks))
	w.int(int64(tw.UnknownFrees))
	w.bool(tw.Peak != nil)
	if p := tw.Peak; p != nil {
		w.int(p.Allocated)
		w.int(int64(p.Index))
		w.time(p.Time)
		w.bool(p.LowerBound)
		roles := encodeBreakdown(&p.Roles)
		w.uint(uint64(len(roles)))
		w.b = append(w.b, roles...)
		w.int(int64(p.Stray))
		w.int(p.StrayBytes)
		w.bool(p.OverFreed)
	}
	return w.b, nil
}

// windowReader reads what windowWriter wrote, from varints r; its
// methods read nothing once one fails (r.ok false).
type windowReader struct{ varints }

func (r *windowReader) bool() bool {
	if !r.ok || len(r.b) == 0 || r.b[0] > 1 {
		r.ok = false
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

// count reads a list's count, false for a nil list; a count larger than
// the bytes left, each item taking at least `least` bytes, fails.
func (r *windowReader) count(least int) (int, bool) {
	n := r.uint()
	if !r.ok || n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(r.b))/uint64(least) {
		r.ok = false
		return 0, false
	}
	return int(n - 1), true
}

func (r *windowReader) time() time.Time {
	if !r.bool() {
		return time.Time{}
	}
	return time.UnixMicro(r.int()).UTC()
}

// decodeWindow reads a window encodeWindow wrote. It refuses (false) a
// wrong format, a truncated or overlong entry, a count larger than the
// bytes left, a flag that is not 0 or 1, and roles that decodeBreakdown
// refuses. (TraceWindow.valid checks what the fields mean.)
func decodeWindow(b []byte) (TraceWindow, bool) {
	var tw TraceWindow
	if len(b) == 0 || b[0] != windowFormat {
		return tw, false
	}
	r := windowReader{varints{b: b[1:], ok: true}}
	tw.Path = r.str()
	tw.Entries = int(r.int())
	tw.Start = r.time()
	tw.End = r.time()
	// A timeline point takes at least four bytes.
	if n, ok := r.count(4); ok {
		tw.Timeline = make([]TimelinePoint, n)
		var prev TimelinePoint
		for i := range tw.Timeline {
			p := TimelinePoint{Index: prev.Index + int(r.int()), TimeUS: prev.TimeUS + r.int(),
				Allocated: prev.Allocated + r.int(), Reserved: prev.Reserved + r.int()}
			tw.Timeline[i], prev = p, p
		}
	}
	tw.PeakAllocated = r.int()
	// A group takes at least ten bytes.
	if n, ok := r.count(10); ok {
		tw.NeverFreed = make([]LiveGroup, n)
		for i := range tw.NeverFreed {
			g := &tw.NeverFreed[i]
			g.Key, g.Fingerprint, g.Site, g.Function, g.File = r.str(), r.str(), r.str(), r.str(), r.str()
			g.Kind = SiteKind(r.str())
			g.Bytes, g.Blocks = r.int(), int(r.int())
			// A frame takes at least seven bytes.
			if n, ok := r.count(7); ok {
				g.Stack = make([]snapshot.Frame, n)
				for j := range g.Stack {
					f := &g.Stack[j]
					f.File, f.Line, f.Name = r.str(), int(r.int()), r.str()
					f.FX.Op, f.FX.Name, f.FX.Target, f.FX.Trace = r.str(), r.str(), r.str(), r.str()
				}
			}
			if n, ok := r.count(1); ok {
				g.User = make([]bool, n)
				for j := range g.User {
					g.User[j] = r.bool()
				}
			}
			if n, ok := r.count(1); ok {
				g.Spread = make([]int64, n)
				for j := range g.Spread {
					g.Spread[j] = r.int()
				}
			}
			g.Turnovers = int(r.int())
			if !r.ok {
				return TraceWindow{}, false
			}
		}
	}
	tw.NeverFreedBytes = r.int()
	tw.NeverFreedBlocks = int(r.int())
	tw.UnknownFrees = int(r.int())
	if r.bool() {
		p := &TracePeak{Allocated: r.int(), Index: int(r.int())}
		p.Time = r.time()
		p.LowerBound = r.bool()
		n := r.uint()
		if !r.ok || n > uint64(len(r.b)) {
			return TraceWindow{}, false
		}
		bd, ok := decodeBreakdown(r.b[:n])
		if !ok {
			return TraceWindow{}, false
		}
		r.b = r.b[n:]
		p.Roles = bd
		p.Stray, p.StrayBytes = int(r.int()), r.int()
		p.OverFreed = r.bool()
		tw.Peak = p
	}
	if !r.ok || len(r.b) != 0 {
		return TraceWindow{}, false
	}
	return tw, true
}
