package snapshot

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

// TestFieldsByMeaning writes snapshots whose fields come in the shapes
// other versions and writers produce, or that cannot be made sense of, and
// checks what the decoder makes of them: the value it reads or assumes,
// the note it makes (place and assumption, "" for none), and that the fast
// path takes the shapes that need no note without falling back. The
// reference decoder (gopickle's tree through the converter) must agree.
func TestFieldsByMeaning(t *testing.T) {
	seg := func(top *pyDict, i int) *pyDict {
		v, _ := top.get("segments")
		return v.(*pyList).items[i].(*pyDict)
	}
	block := func(top *pyDict, s, b int) *pyDict {
		v, _ := seg(top, s).get("blocks")
		return v.(*pyList).items[b].(*pyDict)
	}
	entry := func(top *pyDict, i int) *pyDict {
		v, _ := top.get("device_traces")
		return v.(*pyList).items[0].(*pyList).items[i].(*pyDict)
	}
	allSegs := func(top *pyDict, f func(d *pyDict)) {
		v, _ := top.get("segments")
		for _, s := range v.(*pyList).items {
			f(s.(*pyDict))
		}
	}
	unknownLine := new(big.Int).SetUint64(math.MaxUint64)
	wide := new(big.Int).Lsh(big.NewInt(1), 70)
	for _, c := range []struct {
		name    string
		edit    func(top *pyDict)
		place   string // of the first note; "" for none
		assumed string
		fast    bool // the fast path takes it
		check   func(s *Snapshot) bool
	}{
		{"frame line 2^64-1 (LONG1 of 9 bytes)", func(top *pyDict) {
			e := entry(top, 1)
			fv, _ := e.get("frames")
			fv.(*pyList).items[0].(*pyDict).set("line", unknownLine)
		}, "", "", true, func(s *Snapshot) bool {
			return s.Stacks.StackFrames(s.Traces[0][1].Stack)[0].Line == 0
		}},
		{"segment_pool_id as a list", func(top *pyDict) {
			allSegs(top, func(d *pyDict) { d.set("segment_pool_id", pyL(int64(1), int64(7))) })
		}, "", "", true, func(s *Snapshot) bool { return s.Segments[2].PrivatePool == [2]int64{1, 7} }},
		{"blocks short of total_size (trimmed)", func(top *pyDict) {
			bv, _ := seg(top, 0).get("blocks")
			bv.(*pyList).items = bv.(*pyList).items[:2]
		}, "segments[0]", assumeBlocksCount, true, func(s *Snapshot) bool {
			return len(s.Segments[0].Blocks) == 2 && s.Segments[0].TotalSize == 20<<20
		}},
		{"negative address (the C++ pickler's int64)", func(top *pyDict) {
			block(top, 0, 1).set("address", int64(-0x100000000000))
		}, "", "", true, func(s *Snapshot) bool { return s.Segments[0].Blocks[1].Address == 0xfffff00000000000 }},
		{"time_us -1 and None", func(top *pyDict) {
			entry(top, 2).set("time_us", int64(-1))
			entry(top, 3).set("time_us", nil)
		}, "", "", true, func(s *Snapshot) bool { return s.Traces[0][2].TimeUS == 0 && s.Traces[0][3].TimeUS == 0 }},
		{"is_expandable as an int, sizes as floats, strs as bytes", func(top *pyDict) {
			seg(top, 1).set("is_expandable", int64(1))
			block(top, 1, 0).set("size", float64(2<<20))
			entry(top, 4).set("action", []byte("segment_free"))
		}, "", "", true, func(s *Snapshot) bool {
			return s.Segments[1].Expandable && s.Segments[1].Blocks[0].Size == 2<<20 && s.Traces[0][4].Action == ActionSegmentFree
		}},
		{"a size that is no number", func(top *pyDict) {
			block(top, 0, 1).set("size", "big")
		}, "segments[0].blocks[1].size", assumeBlockSize0, false, func(s *Snapshot) bool {
			return s.Segments[0].Blocks[1].Size == 0 && s.Segments[0].TotalSize == 20<<20
		}},
		{"total_size missing", func(top *pyDict) {
			d := seg(top, 1)
			*d = *pyD("device", int64(1), "blocks", get(d, "blocks"))
		}, "segments[1].total_size", assumeTotalSize, false, func(s *Snapshot) bool {
			return s.Segments[1].TotalSize == 20<<20 && s.Segments[1].AllocatedSize == 10<<20
		}},
		{"requested_size None on an active block", func(top *pyDict) {
			block(top, 0, 0).set("requested_size", nil)
		}, "segments[0].blocks[0].requested_size", assumeRequested, false, func(s *Snapshot) bool {
			return s.Segments[0].Blocks[0].RequestedSize == 2<<20
		}},
		{"state missing", func(top *pyDict) {
			d := block(top, 0, 3)
			*d = *pyD("size", int64(8<<20), "address", get(d, "address"))
		}, "segments[0].blocks[3].state", assumeStateUnknown, false, func(s *Snapshot) bool {
			return s.Segments[0].Blocks[3].State == StateUnknown
		}},
		{"device -1", func(top *pyDict) {
			seg(top, 1).set("device", int64(-1))
		}, "segments[1].device", assumeDevice0, false, func(s *Snapshot) bool { return s.Segments[1].Device == 0 }},
		{"trace size wider than 64 bits", func(top *pyDict) {
			entry(top, 5).set("size", wide)
		}, "device_traces[0][5].size", assumeZero, false, func(s *Snapshot) bool { return s.Traces[0][5].Size == 0 }},
		{"frames that are no list, a frame that is no dict", func(top *pyDict) {
			entry(top, 1).set("frames", "frames")
			entry(top, 2).set("frames", pyL(int64(3), pyD("name", "f", "filename", "x.py", "line", int64(4))))
		}, "device_traces[0][1].frames", assumeNoStack, false, func(s *Snapshot) bool {
			f := s.Stacks.StackFrames(s.Traces[0][2].Stack)
			return s.Traces[0][1].Stack == NoStack && len(f) == 1 && f[0].Line == 4
		}},
		{"segment_pool_id of three", func(top *pyDict) {
			seg(top, 2).set("segment_pool_id", pyTuple{int64(1), int64(2), int64(3)})
		}, "segments[2].segment_pool_id", assumeDefaultPool, false, func(s *Snapshot) bool { return s.Segments[2].PrivatePool == [2]int64{} }},
		{"annotations as a dict", func(top *pyDict) {
			top.set("external_annotations", pyD("stage", "START"))
		}, "external_annotations", assumeNoAnnots, true, func(s *Snapshot) bool { return len(s.Annotations) == 0 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := synthSnapshot(synthOpts{entries: 20, segments: 3})
			c.edit(top)
			data := writePickle(top, stylePy4)
			s, _, err := DecodeBytes(data, DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var place, assumed string
			if len(s.Notes) > 0 {
				place, assumed = s.Notes[0].Place, s.Notes[0].Assumed
			}
			if place != c.place || assumed != c.assumed {
				t.Errorf("notes %v; want the first at %q assuming %q", s.Notes, c.place, c.assumed)
			}
			if !c.check(s) {
				t.Errorf("decoded values are not the ones read or assumed")
			}
			_, ferr := decodeFast(bytes.NewReader(data), int64(len(data)), false)
			if errors.Is(ferr, errFallback) == c.fast {
				t.Errorf("fast path: %v; want it to take the file: %v", ferr, c.fast)
			}
			ref, err := DecodeReference(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if d := diffSnapshots(s, ref); d != "" {
				t.Errorf("reference decoder disagrees: %s", d)
			}
		})
	}
}

// TestDecodeNoteMerging: one problem at many places of the same pattern is
// one note with a count, and the note reads as the report prints it.
func TestDecodeNoteMerging(t *testing.T) {
	var ns noteSet
	for _, p := range []string{"segments[0].blocks[1].size", "segments[3].blocks[0].size", "segments[3].size"} {
		ns.add(p, probNotInt, "big", assumeBlockSize0)
	}
	if len(ns.notes) != 2 || ns.notes[0].Count != 2 || ns.notes[1].Count != 1 {
		t.Fatalf("notes %+v", ns.notes)
	}
	want := "segments[0].blocks[1].size: a str, not an integer; assumed 0 bytes (1 more place like it)"
	if got := ns.notes[0].String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestStillRejected: what is not a snapshot, what is cut short and what
// asks to construct classes is still rejected, with the reason.
func TestStillRejected(t *testing.T) {
	full := writePickle(synthSnapshot(synthOpts{entries: 5, segments: 1}), stylePy4)
	for _, c := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"cut short", full[:len(full)/2], ErrTruncated, "truncated"},
		{"class", []byte("\x80\x02cbuiltins\nlist\n)R."), ErrForbiddenOpcode, "never construct classes"},
		{"no segments", writePickle(pyD("device_traces", pyL()), stylePy4), ErrNotSnapshot, "no 'segments' key"},
		{"segments of ints", writePickle(pyD("segments", pyTuple{int64(1)}), stylePy4), ErrNotSnapshot, "segments[0]: expected segment dict"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeBytes(c.data, DecodeOptions{})
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want %v saying %q", err, c.want, c.msg)
			}
		})
	}
}
