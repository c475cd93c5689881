package analyze

import (
	"crypto/sha1"
	"encoding/hex"
	"path"
	"slices"
	"strconv"
	"strings"

	"gpureport/analyze/frames"
	"gpureport/snapshot"
)

// A stack signature names the allocation site of a block so that the
// same site is recognised in every snapshot, run and machine:
//
//   - the site is the innermost user frame: the first frame, innermost
//     first, that is a Python frame outside torch/, site-packages/,
//     dist-packages/, the interpreter's lib/pythonX.Y/, <frozen ...> and
//     torch.compile's generated code (IsUserFrame);
//   - the signature key is that frame as basename:line:function plus the
//     outer user frames as basename:function, without their lines, so an
//     edit elsewhere in the file does not change it, and without directory
//     prefixes, so /home/alice/proj and /mnt/ci/proj agree;
//   - the fingerprint is the first 12 hex digits of the key's SHA-1.
//
// Stacks without a user frame fall back to their innermost Python frame
// (kind "library": allocations torch makes on its own, e.g. in the
// optimizer called from C++), and stacks without a Python frame to the
// names of their C++ frames (kind "native"). Blocks without frames form
// the "(no stack)" group: counted for coverage, never a suspect.
//
// C++-only stacks are common: with stacks="all", everything autograd's
// backward pass allocates runs in the engine's own thread, where no
// Python frame exists. Such a site is named after what a user can find
// in the model (nativeSiteOf): the autograd node (BmmBackward0,
// AccumulateGrad: the grad_fn names PyTorch shows), else the outermost
// ATen operator (aten::bmm), else "(native)"; its Function is the
// innermost C++ frame past the allocator, without its parameter list.

// NoStackSite is the Site of the group of blocks without frames.
const NoStackSite = "(no stack)"

// NativeSite is the Site of stacks made only of C++ frames.
const NativeSite = "(native)"

// maxNativeKeyFrames bounds how many C++ frame names a native signature
// keeps; deeper frames are the interpreter's and the thread's start-up,
// the same for every allocation.
const maxNativeKeyFrames = 24

// IsNativeFrame reports whether f is a C++ frame (frames.IsNative).
func IsNativeFrame(f snapshot.Frame) bool { return frames.IsNative(f) }

// IsLibraryFrame reports whether the Python frame f belongs to torch, an
// installed package, the interpreter, or code torch.compile generated
// (frames.IsLibrary).
func IsLibraryFrame(f snapshot.Frame) bool { return frames.IsLibrary(f) }

// IsUserFrame reports whether f is a frame of the user's own Python code:
// neither native nor library (frames.IsUser).
func IsUserFrame(f snapshot.Frame) bool { return frames.IsUser(f) }

// UserMask marks the user frames of a stack.
func UserMask(frames []snapshot.Frame) []bool {
	m := make([]bool, len(frames))
	for i, f := range frames {
		m[i] = IsUserFrame(f)
	}
	return m
}

// baseName returns the last element of a path with / or \ separators.
func baseName(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return p
	}
	return path.Base(p)
}

// SignatureOf computes the signature of frames (innermost first).
func SignatureOf(frames []snapshot.Frame) Signature {
	kinds := make([]frameKind, len(frames))
	for i, f := range frames {
		kinds[i] = kindOf(f)
	}
	return signatureOf(frameSlice(frames), kinds)
}

// frameSeq is a stack's frames, innermost first, read where they are: a
// run signs thousands of stacks of tens of frames, and copying each
// stack's frames out of its table (104 bytes a frame, with pointers) was
// most of the signing.
type frameSeq interface {
	Len() int
	At(i int) *snapshot.Frame
}

// frameSlice is a frameSeq of frames in a slice.
type frameSlice []snapshot.Frame

func (s frameSlice) Len() int                 { return len(s) }
func (s frameSlice) At(i int) *snapshot.Frame { return &s[i] }

// tableFrames is a frameSeq of a stack's frame IDs in its table's frames.
type tableFrames struct {
	ids []snapshot.FrameID
	all []snapshot.Frame
}

func (t tableFrames) Len() int                 { return len(t.ids) }
func (t tableFrames) At(i int) *snapshot.Frame { return &t.all[t.ids[i]] }

// frameKind classifies a frame once, so a frame shared by thousands of
// stacks is classified once per snapshot.
type frameKind uint8

const (
	kindNative frameKind = iota + 1
	kindLibrary
	kindUser
)

func kindOf(f snapshot.Frame) frameKind {
	switch {
	case IsNativeFrame(f):
		return kindNative
	case IsLibraryFrame(f):
		return kindLibrary
	}
	return kindUser
}

func signatureOf[F frameSeq](frames F, kinds []frameKind) Signature {
	n := frames.Len()
	if n == 0 {
		return noStackSignature
	}
	site := slices.Index(kinds, kindUser)
	var b strings.Builder
	kind := SiteUser
	if site < 0 {
		site = slices.Index(kinds, kindLibrary)
		kind = SiteLibrary
	}
	if site < 0 {
		// C++ only: the names of the frames, past the allocator's own.
		b.WriteString("native")
		k := 0
		fn := ""
		for i := range n {
			f := frames.At(i)
			if isAllocatorPlumbing(f.Name) {
				continue
			}
			if fn == "" {
				fn = f.Name
			}
			b.WriteString("|")
			b.WriteString(f.Name)
			if k++; k == maxNativeKeyFrames {
				break
			}
		}
		return finishSignature(Signature{Site: nativeSiteOf(frames), Function: cppShortName(fn), Kind: SiteNative}, b.String())
	}
	sf := frames.At(site)
	sig := Signature{
		Site:     baseName(sf.File) + ":" + strconv.Itoa(sf.Line),
		Function: sf.Name,
		File:     sf.File,
		Kind:     kind,
	}
	b.WriteString(string(kind))
	b.WriteString("|")
	b.WriteString(sig.Site)
	b.WriteString(":")
	b.WriteString(sf.Name)
	for i := site + 1; i < n; i++ {
		k := kinds[i]
		keep := k == kindUser
		if kind == SiteLibrary {
			keep = k != kindNative
		}
		if !keep {
			continue
		}
		f := frames.At(i)
		b.WriteString("|")
		b.WriteString(baseName(f.File))
		b.WriteString(":")
		b.WriteString(f.Name)
	}
	return finishSignature(sig, b.String())
}

// AutogradSiteSuffix ends the Site of a C++-only stack that an autograd
// node's backward made ("BmmBackward0 (autograd)").
const AutogradSiteSuffix = " (autograd)"

// nativeSiteOf names the site of a C++-only stack (innermost frame
// first): "BmmBackward0 (autograd)" for the innermost autograd node, else
// "aten::bmm" for the outermost ATen operator (the one called from
// outside ATen; inner ones are its decomposition), else NativeSite.
func nativeSiteOf[F frameSeq](stack F) string {
	op := ""
	for i := range stack.Len() {
		f := *stack.At(i)
		if node, ok := frames.AutogradNode(f); ok {
			return node + AutogradSiteSuffix
		}
		if name, ok := frames.ATenOp(f); ok {
			op = "aten::" + name
		}
	}
	if op != "" {
		return op
	}
	return NativeSite
}

// cppShortName drops the return type and parameter list of a demangled
// C++ function name: "void at::cuda::blas::gemm<float>(char, ...)" is
// "at::cuda::blas::gemm<float>". "(anonymous namespace)" stays; a name
// it cannot read is returned whole.
func cppShortName(name string) string {
	const anon = "(anonymous namespace)"
	depth, start := 0, 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case c == ' ' && depth == 0 && i+1 < len(name) && !strings.HasPrefix(name[i+1:], "namespace)"):
			start = i + 1 // a return type before the name
		case c == '(' && depth == 0:
			if strings.HasPrefix(name[i:], anon) {
				i += len(anon) - 1
				continue
			}
			if i > start {
				return name[start:i]
			}
			return name
		}
	}
	return name
}

var noStackSignature = finishSignature(Signature{Site: NoStackSite, Kind: SiteNone}, "none")

func finishSignature(s Signature, key string) Signature {
	s.Key = key
	s.Fingerprint = Fingerprint(key)
	return s
}

// Fingerprint returns the first 12 hex digits of the SHA-1 of a signature
// key.
func Fingerprint(key string) string {
	h := sha1.Sum([]byte(key))
	return hex.EncodeToString(h[:6])
}

// isAllocatorPlumbing reports whether a C++ function name is part of every
// allocation's stack (the unwinder, the caching allocator, tensor
// creation), so it says nothing about the site.
func isAllocatorPlumbing(name string) bool {
	for _, p := range allocatorPlumbing {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

var allocatorPlumbing = []string{
	"torch::unwind", "CapturedTraceback", "gather_with_cpp", "CUDACachingAllocator",
	"c10::StorageImpl", "empty_generic", "empty_cuda", "empty_strided_cuda", "create_out",
	"at::detail::", "c10::cuda::",
}

// signatureCache memoises signatures per stack of one snapshot, since
// millions of blocks and trace entries share a few thousand stacks, and
// frame kinds per frame, since stacks share most of their frames. With a
// run's memo (newRunSignatureCache) a stack another snapshot of the run
// already signed is not signed again.
type signatureCache struct {
	st    *snapshot.Stacks
	sigs  map[snapshot.StackID]*Signature // without a memo; made at first use
	kinds []frameKind                     // by FrameID; 0 = not yet classified
	none  Signature
	memo  *frames.StackMemo[*Signature]
	// fixed holds, by StackID, the signatures freeze looked up (nil
	// where it did not).
	fixed []*Signature
}

// freeze looks up the signature of the stack of every live block of
// device dev in s and answers those from then on from c alone, no longer
// reading the run's memo (another goroutine's from then on); a stack it
// did not look up is signed afresh, by c alone too.
func (c *signatureCache) freeze(s *snapshot.Snapshot, dev int) {
	fixed := make([]*Signature, c.st.Len())
	last := snapshot.NoStack
	for b := range liveBlocks(s, dev) {
		if id := b.Stack; id != last && id != snapshot.NoStack && int(id) < len(fixed) && fixed[id] == nil {
			fixed[id] = c.get(id)
		}
		last = b.Stack
	}
	c.fixed, c.memo = fixed, nil
}

// newRunSignatureCache is newSignatureCache with the run's memo of
// signatures by frames.
func newRunSignatureCache(st *snapshot.Stacks, memo *frames.StackMemo[*Signature]) *signatureCache {
	c := newSignatureCache(st)
	c.memo = memo
	return c
}

func newSignatureCache(st *snapshot.Stacks) *signatureCache {
	return &signatureCache{st: st, none: noStackSignature}
}

func (c *signatureCache) get(id snapshot.StackID) *Signature {
	if id == snapshot.NoStack {
		return &c.none
	}
	if int(id) < len(c.fixed) {
		if s := c.fixed[id]; s != nil {
			return s
		}
	}
	if c.memo != nil {
		// The memo finds a stack of this table by its ID in an array:
		// a map of the cache's own would only repeat it.
		return c.memo.Get(c.st, id, func() *Signature { return c.sign(id) })
	}
	if s, ok := c.sigs[id]; ok {
		return s
	}
	if c.sigs == nil {
		c.sigs = map[snapshot.StackID]*Signature{}
	}
	s := c.sign(id)
	c.sigs[id] = s
	return s
}

// sign computes the signature of stack id.
func (c *signatureCache) sign(id snapshot.StackID) *Signature {
	ids := c.st.Stack(id)
	kinds := make([]frameKind, len(ids))
	if c.kinds == nil {
		// Made at the first stack signed: with a run's memo most
		// snapshots sign none.
		c.kinds = make([]frameKind, len(c.st.Frames))
	}
	for i, fid := range ids {
		if c.kinds[fid] == 0 {
			c.kinds[fid] = kindOf(c.st.Frames[fid])
		}
		kinds[i] = c.kinds[fid]
	}
	s := signatureOf(tableFrames{ids: ids, all: c.st.Frames}, kinds)
	return &s
}
