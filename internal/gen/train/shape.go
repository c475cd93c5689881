package train

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/layout"
	"gpureport/internal/gen/pickle"
	"gpureport/internal/pickleop"
)

// Shape is a snapshot of a chosen make-up, for the decoder and long-run
// benchmarks: how many tensors are alive at the dump (and so how many
// blocks the segments hold), how long the trace is, how many distinct
// allocation stacks there are and how many caught OOM events the trace
// keeps. The training step behind it is abstract (a model's tensors, then
// steps that allocate and free temporaries), but everything in the file is
// as PyTorch 2.6 and CPython's pickle.dump write it: one dict per distinct
// frame, referenced from every frames list that holds it (the memo gets
// that make most of a real snapshot), one frames list per captured
// traceback, timed trace events.
type Shape struct {
	// Tensors is the number of tensors alive at the dump (parameters,
	// gradients and optimizer states): each is a block, and the segments
	// add one free remainder block per partly used segment.
	Tensors int
	// Events is the trace ring's size: the trace holds the last Events
	// events (the run makes more, so that the ring is full).
	Events int
	// Stacks is the number of distinct allocation sites, and so distinct
	// stacks, that tensors and temporaries are allocated at.
	Stacks int
	// OOMs is the number of caught OOM events at the end of the last step
	// (a training loop that catches torch.cuda.OutOfMemoryError and goes
	// on): they are in the trace, and so in every snapshot of a run made
	// of copies of the file.
	OOMs int
	// OOMsEarly puts the OOMs early in the trace instead: about nine
	// tenths of its events follow them (a run that hit OOMs, recovered,
	// and kept them in its ring buffer), so that explaining one replays
	// most of the trace.
	OOMsEarly bool
	// PythonDepth is the number of the user's nested module calls above
	// the operator in every stack (each adds its forward frame and the
	// module-call frames); with the C++ frames it sets the frames per
	// stack, and so the file's size per block and event.
	PythonDepth int
	// Seed drives every random choice.
	Seed uint64
	// Live is the bytes the tensors take in all; 0 is shapeLive (half an
	// H100). With Tensors it sets the mean tensor size, and so how many
	// tensors share a segment.
	Live int64
}

// Shapes the benchmarks name. Their sizes are those of snapshots made
// elsewhere: FewBlocks the long-trace file the digest cache was first
// measured on, Ordinary a 3 MB snapshot of a mid-sized model (10k blocks,
// 10k events, 3,000 stacks), Large a mixture-of-experts model's 48 MB
// snapshot (175k parameter and optimizer-state tensors).
var (
	FewBlocks = Shape{Tensors: 300, Events: 60_000, Stacks: 3000, PythonDepth: 3, Seed: 1}
	Ordinary  = Shape{Tensors: 9_500, Events: 10_000, Stacks: 3000, PythonDepth: 0, Seed: 2}
	Large     = Shape{Tensors: 161_000, Events: 10_000, Stacks: 3000, PythonDepth: 6, Seed: 3}
)

// ShapeResult describes a written shape snapshot.
type ShapeResult struct {
	// Segments, Blocks and Entries count what the file holds; OOMs the
	// OOM events in its trace.
	Segments, Blocks, Entries, OOMs int
	// Frames is the number of distinct frame dicts; Bytes the file size.
	Frames int
	Bytes  int64
	// VariantAt are the byte offsets of the 4-byte operands (BININT,
	// little endian) that hold the requested size of one live block and
	// its segment's requested_size: SetVariant writes copies that differ
	// there. VariantSize is the block's requested size in copy 0, bytes.
	VariantAt   []int64
	VariantSize int32
	// variantBase is the value at each of VariantAt in copy 0.
	variantBase []int32
}

// SetVariant makes data, the snapshot written with result r, its copy
// number i (from 0, less than VariantSize): the largest live block that
// can vary asks for i bytes less than in copy 0, which its size allows,
// and its segment's requested_size is i bytes less too. The copies of
// a run are then distinct snapshots, as a run's are (the digests of equal
// segment lists would share them), of the same size and make-up.
func (r *ShapeResult) SetVariant(data []byte, i int) {
	for k, at := range r.VariantAt {
		binary.LittleEndian.PutUint32(data[at:], uint32(r.variantBase[k])-uint32(i))
	}
}

// shapeStepAllocs is the number of temporaries a step allocates (and
// frees): each makes three events (alloc, free_requested,
// free_completed), so a 10k-event trace holds the last 17 steps.
const shapeStepAllocs = 200

// varyOffsets is how many distinct odd amounts under 512 bytes the
// blocks of one size that copies may vary in ask for less than their
// size: a number below their size's 512-byte rounding names its block's
// size and amount, so blocks of equal size and distinct amounts never
// write the same requested_size.
const varyOffsets = 256

// shapeCapacity is the simulated device's memory: an 80 GB H100's.
const shapeCapacity = 81559 << 20

// shapeLive is the bytes the tensors alive at the dump take in all, half
// the device: a model that fits with room for its activations.
const shapeLive = 40 << 30

// WriteShape writes one snapshot of shape sh (pickle protocol 4, as
// CPython's pickle.dump writes PyTorch 2.6's _snapshot()) to w. The
// result tells how to make distinct copies of it (Variant).
func WriteShape(w io.Writer, sh Shape) (*ShapeResult, error) {
	if sh.Tensors < 1 || sh.Events < 1 || sh.Stacks < 1 || sh.OOMs < 0 || sh.PythonDepth < 0 {
		return nil, fmt.Errorf("shape %+v: want at least one tensor, event and stack", sh)
	}
	era, err := EraByVersion("2.6")
	if err != nil {
		return nil, err
	}
	c := newCatalog(Env{Era: era, SitePackages: "/opt/conda/lib/python3.12/site-packages", Project: "/workspace/moe", CppStacks: true})
	sites := c.shapeSites(sh.Stacks, sh.PythonDepth)
	frees := c.shapeFreeSites()
	r := rand.New(rand.NewPCG(sh.Seed, 0x5ba9e))
	a := alloc.New(alloc.Config{Capacity: shapeCapacity, MaxEntries: sh.Events, BaseAddress: 0x300000000})
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).UnixMicro()
	tick := func() {
		now += 20 + int64(r.IntN(60))
		a.SetTime(now)
	}

	// The model: its tensors, in the order a model is built and its
	// optimizer initialised, each at one of the sites.
	live := sh.Live
	if live <= 0 {
		live = shapeLive
	}
	mean := float64(live) / float64(sh.Tensors)
	for i := range sh.Tensors {
		tick()
		s := sites[(i*7919)%len(sites)]
		if _, err := a.Malloc(tensorSize(r, mean), 0, c.ctx(s)); err != nil {
			return nil, fmt.Errorf("shape: tensor %d: %w", i, err)
		}
	}
	// The steps: temporaries allocated and freed, until the ring holds
	// only steps' events.
	events := 0
	steps := sh.Events/(3*shapeStepAllocs) + 2
	// The step before which early OOMs happen: the following steps make
	// at most nine tenths of the ring, so the OOMs stay in it.
	earlyStep := steps - max(1, 9*sh.Events/10/(3*shapeStepAllocs))
	for step := range steps {
		if sh.OOMsEarly && step == earlyStep {
			if err := shapeOOMs(a, c, sites, r, sh.OOMs, tick); err != nil {
				return nil, err
			}
		}
		var temps []*alloc.Block
		for range shapeStepAllocs {
			tick()
			b, err := a.Malloc(tensorSize(r, 4<<20), 0, c.ctx(sites[r.IntN(len(sites))]))
			if err != nil {
				return nil, fmt.Errorf("shape: step %d: %w", step, err)
			}
			temps = append(temps, b)
			events += 3
		}
		for j := len(temps) - 1; j >= 0; j-- {
			tick()
			a.Free(temps[j], c.ctx(frees[j%len(frees)]))
		}
		a.ProcessEvents()
	}
	if events < sh.Events {
		return nil, fmt.Errorf("shape: %d events do not fill a ring of %d", events, sh.Events)
	}
	// Caught OOMs at the end of the last step (shapeOOMs), then one more
	// temporary, so that the trace does not end at an OOM (as the file an
	// OOM handler writes does).
	if !sh.OOMsEarly {
		if err := shapeOOMs(a, c, sites, r, sh.OOMs, tick); err != nil {
			return nil, err
		}
	}
	if sh.OOMs > 0 && !sh.OOMsEarly {
		tick()
		b, err := a.Malloc(tensorSize(r, 4<<20), 0, c.ctx(sites[r.IntN(len(sites))]))
		if err != nil {
			return nil, fmt.Errorf("shape: after the OOMs: %w", err)
		}
		tick()
		a.Free(b, c.ctx(frees[0]))
		a.ProcessEvents()
	}

	// Live blocks of over 1 MiB (large-pool blocks, which may exceed
	// their request by up to 1 MiB) and under 2 GiB ask for an odd number
	// of bytes less than their size, so that copies can ask for a few
	// bytes less each in one of them (SetVariant), in the block and in its
	// segment's requested_size. The amount differs between blocks of one
	// size (up to varyOffsets of them), so that the number is written
	// once in the file; a large model's blocks share their segments, so
	// the segment's sum is a number of its own (the same one when the
	// block is alone).
	type variant struct {
		block            *alloc.Block
		segmentRequested int64 // the segment's requested_size in copy 0
	}
	var vary []variant
	bySize := map[int64]int64{} // candidates of each size so far
	for _, sg := range a.Segments() {
		var mine []*alloc.Block
		for _, bl := range sg.Blocks() {
			if bl.State == alloc.ActiveAllocated && bl.Size > 1<<20 && bl.Size < 1<<31 {
				bl.Requested = bl.Size - 1 - 2*(bySize[bl.Size]%varyOffsets)
				bySize[bl.Size]++
				mine = append(mine, bl)
			}
		}
		var requested int64 // as the layout sums it
		for _, bl := range sg.Blocks() {
			if bl.State != alloc.Inactive {
				requested += bl.Requested
			}
		}
		if requested < 1<<31 {
			for _, bl := range mine {
				vary = append(vary, variant{bl, requested})
			}
		}
	}
	slices.SortStableFunc(vary, func(x, y variant) int { return cmp.Compare(y.block.Size, x.block.Size) })

	opt := era.Layout
	opt.Devices = 1
	b := layout.NewBuilder(opt)
	tree := b.Build([]layout.Device{{Alloc: a, Trace: a.Trace()}}, layout.Settings{MaxSplitSize: -1}, nil)
	var buf bytes.Buffer
	if err := pickleEncode(&buf, tree); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	res := &ShapeResult{Entries: len(a.Trace()), Frames: b.FrameDicts(), Bytes: int64(len(data))}
	// The first of them whose requested size and its segment's are
	// written once each (twice, the same number, when it is alone in its
	// segment), and nowhere else.
	offsets := func(v int64) []int64 {
		pat := binary.LittleEndian.AppendUint32([]byte{pickleop.BinInt}, uint32(v))
		var at []int64
		for off := 0; ; {
			j := bytes.Index(data[off:], pat)
			if j < 0 {
				return at
			}
			at = append(at, int64(off+j+1))
			off += j + 1
		}
	}
	for _, v := range vary {
		block, seg := offsets(v.block.Requested), offsets(v.segmentRequested)
		switch {
		case v.segmentRequested == v.block.Requested && len(block) == 2:
			res.VariantAt, res.variantBase = block, []int32{int32(v.block.Requested), int32(v.block.Requested)}
		case v.segmentRequested != v.block.Requested && len(block) == 1 && len(seg) == 1:
			res.VariantAt, res.variantBase = []int64{block[0], seg[0]}, []int32{int32(v.block.Requested), int32(v.segmentRequested)}
		default:
			continue
		}
		res.VariantSize = int32(v.block.Requested)
		break
	}
	if res.VariantAt == nil {
		return nil, errors.New("shape: no live block of 1 MiB to 2 GiB whose requested size and its segment's are written once, to make copies differ in")
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	for _, sg := range a.Segments() {
		res.Segments++
		res.Blocks += len(sg.Blocks())
	}
	for _, e := range a.Trace() {
		if e.Action == alloc.OOM {
			res.OOMs++
		}
	}
	if res.OOMs != sh.OOMs {
		return nil, fmt.Errorf("shape: a trace of %d events keeps %d of the %d OOM events", sh.Events, res.OOMs, sh.OOMs)
	}
	return res, nil
}

// pickleEncode writes tree as CPython's pickle.dump writes it (protocol 4).
func pickleEncode(w io.Writer, tree any) error {
	enc, err := pickle.NewEncoder(w, pickle.Options{Protocol: 4})
	if err != nil {
		return err
	}
	return enc.Encode(tree)
}

// tensorSize draws a tensor size of mean bytes on average, spread over a
// factor of 128 (a power of two from 1 to 64, times 1 to 2), in whole
// 512-byte units.
func tensorSize(r *rand.Rand, mean float64) int64 {
	// The mean of 2^k for k in 0..6 is 127/7; of 1+u, 1.5.
	const spreadMean = 127.0 / 7 * 1.5
	x := mean / spreadMean * float64(uint64(1)<<uint(r.IntN(7))) * (1 + r.Float64())
	return max(512, int64(x)/512*512)
}

// shapeSites returns n distinct allocation sites: an operator (one of a
// few kernels) called from a helper (one of 300 lines) in a module nested
// depth levels deep in a model of experts, each level a line picked from
// the site's number, so that sites share most frames (as the modules of
// one model do) and every stack is distinct.
// shapeOOMs makes n caught OOMs: requests larger than the device (a
// batch-size probe), each recorded and the cached segments released.
func shapeOOMs(a *alloc.Allocator, c *catalog, sites []*site, r *rand.Rand, n int, tick func()) error {
	for range n {
		tick()
		if _, err := a.Malloc(shapeCapacity, 0, c.ctx(sites[r.IntN(len(sites))])); err == nil {
			return errors.New("shape: the OOM probe did not fail")
		}
	}
	return nil
}

func (c *catalog) shapeSites(n, depth int) []*site {
	kernels := []kernel{kLinear, kMatmul, kElementwise, kGelu, kSoftmax, kLayerNorm, kClone, kCopy}
	files := []string{"experts.py", "router.py", "moe.py", "attention.py", "block.py"}
	out := make([]*site, 0, n)
	for i := range n {
		// The innermost user frame: one of 300 call sites of a helper.
		levels := [][]pyFrame{{{c.proj("ops.py"), 100 + i%300, "apply"}}}
		x := i / len(kernels)
		for d := range depth {
			f := files[d%len(files)]
			levels = append(levels, []pyFrame{{c.proj(f), 20 + 3*(x%24), "forward"}})
			x /= 24
		}
		// The rest of the number picks the block's line, so that sites
		// stay distinct however small depth is.
		out = append(out, c.stack(op(kernels[i%len(kernels)].frames()...), c.inBlock(72+x, levels...)))
	}
	return out
}

// shapeFreeSites returns the sites that free a shape's temporaries.
func (c *catalog) shapeFreeSites() []*site {
	m := c.proj(modelPy)
	var out []*site
	for i := range 8 {
		out = append(out, c.stack(withFree(cppPyDealloc()), c.inBlock(72+i%2, []pyFrame{{m, 45 + i, "forward"}})))
	}
	return out
}
