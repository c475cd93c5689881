// Package frames classifies the frames of a PyTorch allocation stack, as
// the snapshot records them (innermost first): C++ or Python, the user's
// own code or a library's (torch, installed packages, the interpreter,
// code torch.compile generated), and the autograd node or ATen operator a
// C++ frame belongs to. Stack signatures (package analyze) and the roles
// of live memory (package analyze/roles) read stacks through it, so both
// draw the line between user and library code in one place.
package frames

import (
	"regexp"
	"strings"

	"gpureport/snapshot"
)

// interpreterLibRE matches the standard library of a Python install:
// /usr/lib/python3.11/, /opt/conda/lib/python3.10/, C:\Python311\Lib\
// (after backslashes became slashes), .../lib64/python3.9/.
var interpreterLibRE = regexp.MustCompile(`(?i)(^|/)lib(64)?/python\d+(\.\d+)?t?/|(^|/)python\d*/lib/`)

// IsNative reports whether f is a C++ frame: line 0, or a file that is
// "??", empty or a C/C++/CUDA source.
func IsNative(f snapshot.Frame) bool {
	return f.Line <= 0 || f.File == "" || f.File == "??" || isNativeSource(f.File)
}

// isNativeSource reports whether a file name ends in a C, C++ or CUDA
// source extension.
func isNativeSource(file string) bool {
	i := strings.LastIndexByte(file, '.')
	if i < 0 || len(file)-i > 4 {
		return false
	}
	switch strings.ToLower(file[i+1:]) {
	case "c", "cc", "cpp", "cxx", "cu", "cuh", "h", "hh", "hpp", "hxx", "inl":
		return true
	}
	return false
}

// IsLibrary reports whether the Python frame f belongs to torch, an
// installed package, the interpreter, or code torch.compile generated.
func IsLibrary(f snapshot.Frame) bool {
	p := Path(f.File)
	switch {
	case strings.HasPrefix(p, "<frozen"), strings.HasPrefix(p, "<built-in"):
		return true
	case strings.Contains(p, "/site-packages/"), strings.Contains(p, "/dist-packages/"):
		return true
	case strings.HasPrefix(p, "torch/"), strings.Contains(p, "/torch/"):
		return true
	case strings.Contains(p, "/torchinductor_"), strings.Contains(p, "/triton/"):
		return true
	}
	return containsFold(p, "python") && interpreterLibRE.MatchString(p)
}

// IsUser reports whether f is a frame of the user's own Python code:
// neither native nor library.
func IsUser(f snapshot.Frame) bool {
	return !IsNative(f) && !IsLibrary(f)
}

// Path returns a frame's file with backslashes as slashes, so Windows
// paths match the same patterns.
func Path(file string) string {
	return strings.ReplaceAll(file, `\`, "/")
}

// containsFold reports whether s contains the lower-case ASCII word sub in
// any case.
func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

var (
	// autogradNodeRE finds an autograd node's apply in a C++ frame:
	// torch::autograd::generated::BmmBackward0::apply(...),
	// torch::autograd::AccumulateGrad::apply(...).
	autogradNodeRE = regexp.MustCompile(`torch::autograd::(?:generated::)?([A-Za-z_]\w*)::apply\(`)
	// atenOpRE finds an ATen operator's entry point: at::_ops::bmm::call(...).
	atenOpRE = regexp.MustCompile(`at::_ops::([A-Za-z_]\w*)::call\(`)
)

// AutogradNode returns the autograd node (BmmBackward0, AccumulateGrad)
// whose apply the C++ frame f is, and false for any other frame.
func AutogradNode(f snapshot.Frame) (string, bool) {
	return nameIn(f, "::apply(", autogradNodeRE)
}

// ATenOp returns the ATen operator (bmm) whose entry point the C++ frame
// f is, and false for any other frame.
func ATenOp(f snapshot.Frame) (string, bool) {
	return nameIn(f, "::call(", atenOpRE)
}

// nameIn returns re's first group in the frame's name. The test for
// marker first skips, cheaply, the many frames re cannot match.
func nameIn(f snapshot.Frame, marker string, re *regexp.Regexp) (string, bool) {
	if !strings.Contains(f.Name, marker) {
		return "", false
	}
	if m := re.FindStringSubmatch(f.Name); m != nil {
		return m[1], true
	}
	return "", false
}
