package roles

import (
	"bytes"
	"os"
	"testing"

	"gpureport/internal/gen/layout"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// FuzzLabels feeds arbitrary text to the readers of user labels (the
// role a label names, a MemPool's name in JSON metadata, the frames of an
// FX node's original trace): none may panic, a role read is a role, and a
// frame read is a Python frame. Seeded with the user_metadata of the real
// snapshots and labels as programs write them.
func FuzzLabels(f *testing.F) {
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle") {
		s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
		if err != nil {
			continue
		}
		for _, m := range s.Meta {
			f.Add(m)
		}
	}
	for _, seed := range []string{
		`{"role": "optimizer_state"}`, `{"pool": "comm-buffers", "step": 3}`, `{"category": ["grads"]}`, "step 3",
		"activation saved for backward", "exp_avg_sq", "  File \"model.py\", line 40, in forward\n    y = self.proj(x)\n",
		"File \"a.py\", line 99999999999999999999, in f", "{", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if r, ok := labelRole(text); ok && r >= NumRoles {
			t.Fatalf("labelRole(%q) = %d", text, r)
		}
		_ = jsonName(text)
		for _, fr := range fxFrames(text) {
			if fr.Line <= 0 || fr.File == "" || fr.Name == "" {
				t.Fatalf("fxFrames(%q) read %+v", text, fr)
			}
		}
	})
}

// FuzzClassify decodes arbitrary bytes as a snapshot and, when they
// decode, classifies every device at its dump and at the middle of its
// trace: nothing may panic, and the roles must sum to the blocks
// classified (at the dump, the allocated bytes). Seeded with the small
// real snapshots and a generated one with every recent key.
func FuzzClassify(f *testing.F) {
	for _, p := range testutil.RealFiles(f, "snapshots", "*.pickle") {
		if data, err := os.ReadFile(p); err == nil && len(data) < 200_000 {
			f.Add(data)
		}
	}
	f.Add(recentFixtureBytes(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, err := snapshot.Decode(bytes.NewReader(data), int64(len(data)), snapshot.DecodeOptions{})
		if err != nil {
			return
		}
		for _, dev := range s.Devices() {
			_, bd := ClassifySnapshot(s, dev)
			if bd.Allocated != allocatedOf(s, dev) {
				t.Fatalf("device %d: classified %d, allocated %d", dev, bd.Allocated, allocatedOf(s, dev))
			}
			if sc := SceneAt(s, dev, s.TraceEntries(dev)/2); sc != nil {
				_, bd := Classify(sc)
				var sum int64
				for _, n := range bd.Bytes {
					sum += n
				}
				if sum != bd.Allocated {
					t.Fatalf("device %d mid-trace: roles sum to %d of %d", dev, sum, bd.Allocated)
				}
			}
		}
		if h := s.Host(); h != nil {
			ClassifySnapshot(h, 0)
		}
	})
}

// recentFixtureBytes is a generated snapshot with user labels, private
// pools, annotations and pinned host memory.
func recentFixtureBytes(tb testing.TB) []byte {
	fx := newFixture(tb)
	w := fx.alloc("w", 8<<20, modelTo, `{"role": "parameters"}`)
	fx.annotate(w, "kept")
	fx.alloc("", 4<<20, forwardAt(40), "")
	fx.pool([2]int64{0, 3})
	fx.alloc("", 8<<20, cudagraphTrees, "")
	fx.pool([2]int64{})
	fx.host = &layout.Host{Segments: []layout.HostSegment{{Addr: 0x10000000, Size: 1 << 20, Requested: 1 << 20, Live: true}}}
	return fx.encode()
}
