package analyze

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"path"
	"strconv"
	"strings"

	"gpureport/snapshot"
)

// Suppressions mark leak suspects as known and benign: they stay in the
// report, marked, but no longer make the verdict a leak.
//
// A user suppression file (--suppress FILE) holds one rule per line:
//
//	# comments start with '#', also after a rule
//	fingerprint 3fa9c2d81b07        # one suspect, as reported
//	3fa9c2d81b07                     # the same: a bare hex fingerprint
//	site train.py:57                 # the suspect's site, basename:line (glob)
//	site data/*.py:*
//	function *warmup*                # the site's function name (glob)
//	frame */apex/*                   # any frame of the stack: its file,
//	frame fused_adam.py:*            # basename:line or function (glob)
//
// Globs are path.Match patterns ('*' and '?' match any characters,
// including '/'; '[...]' classes). A fingerprint rule matches fingerprints
// that start with its text (at least 6 hex digits).
//
// Built-in suppressions cover growth that is normal in training
// (BuiltinSuppression): cuDNN/cuBLAS workspaces, torch.compile and CUDA
// graph memory, and optimizer state created lazily by torch.optim.

// SuppressionKind is what a suppression rule matches.
type SuppressionKind string

// Suppression kinds.
const (
	SuppressFingerprint SuppressionKind = "fingerprint"
	SuppressSite        SuppressionKind = "site"
	SuppressFunction    SuppressionKind = "function"
	SuppressFrame       SuppressionKind = "frame"
)

// Suppression is one rule of a suppression file.
type Suppression struct {
	// Kind says what Pattern is matched against.
	Kind SuppressionKind
	// Pattern is the fingerprint prefix or glob.
	Pattern string
	// Source is where the rule came from, "FILE:LINE", for the report.
	Source string
	// Comment is the text after '#' on the rule's line, if any.
	Comment string
}

// String names the rule as the report shows it.
func (s Suppression) String() string {
	t := string(s.Kind) + " " + s.Pattern
	if s.Source != "" {
		t += " (" + s.Source + ")"
	}
	return t
}

// ParseSuppressions parses the suppression file named name with content
// data. Errors name the file and line and say what is wrong.
func ParseSuppressions(name string, data []byte) ([]Suppression, error) {
	var out []Suppression
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		comment := ""
		if i := strings.Index(text, "#"); i >= 0 {
			comment = strings.TrimSpace(text[i+1:])
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		where := name + ":" + strconv.Itoa(line)
		var s Suppression
		switch {
		case len(fields) == 1 && isHex(fields[0]):
			s = Suppression{Kind: SuppressFingerprint, Pattern: strings.ToLower(fields[0])}
		case len(fields) == 2:
			s = Suppression{Kind: SuppressionKind(strings.ToLower(fields[0])), Pattern: fields[1]}
		default:
			return nil, fmt.Errorf("%s: want 'KIND PATTERN' (fingerprint, site, function or frame), got %q", where, strings.TrimSpace(text))
		}
		s.Source, s.Comment = where, comment
		switch s.Kind {
		case SuppressFingerprint:
			if !isHex(s.Pattern) || len(s.Pattern) < 6 {
				return nil, fmt.Errorf("%s: fingerprint %q is not at least 6 hex digits", where, s.Pattern)
			}
			s.Pattern = strings.ToLower(s.Pattern)
		case SuppressSite, SuppressFunction, SuppressFrame:
			if _, err := path.Match(s.Pattern, ""); err != nil {
				return nil, fmt.Errorf("%s: bad pattern %q: %v", where, s.Pattern, err)
			}
		default:
			return nil, fmt.Errorf("%s: unknown rule kind %q (want fingerprint, site, function or frame)", where, fields[0])
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	return out, nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	_, err := hex.DecodeString(s + strings.Repeat("0", len(s)%2))
	return err == nil
}

// Matches reports whether rule s matches a suspect with signature sig and
// stack frames.
func (s Suppression) Matches(sig Signature, frames []snapshot.Frame) bool {
	switch s.Kind {
	case SuppressFingerprint:
		return strings.HasPrefix(sig.Fingerprint, s.Pattern)
	case SuppressSite:
		return glob(s.Pattern, sig.Site)
	case SuppressFunction:
		return glob(s.Pattern, sig.Function)
	case SuppressFrame:
		for _, f := range frames {
			file := strings.ReplaceAll(f.File, `\`, "/")
			base := baseName(file)
			if glob(s.Pattern, file) || glob(s.Pattern, base) || glob(s.Pattern, base+":"+strconv.Itoa(f.Line)) ||
				glob(s.Pattern, file+":"+strconv.Itoa(f.Line)) || glob(s.Pattern, f.Name) {
				return true
			}
		}
	}
	return false
}

// glob is path.Match where '*' also crosses '/': the pattern is matched
// against the text with slashes hidden.
func glob(pattern, text string) bool {
	const sep = "\x00"
	ok, err := path.Match(strings.ReplaceAll(pattern, "/", sep), strings.ReplaceAll(text, "/", sep))
	return err == nil && ok
}

// matchSuppression returns the first user rule matching a suspect, as
// text, or "".
func matchSuppression(rules []Suppression, sig Signature, frames []snapshot.Frame) string {
	for _, r := range rules {
		if r.Matches(sig, frames) {
			return r.String()
		}
	}
	return ""
}

// BuiltinSuppression returns the name of the built-in benign pattern a
// growing group matches, or "":
//
//   - "cuDNN/cuBLAS workspace": a frame of cuDNN, cuBLAS or cuBLASLt
//     workspace or handle setup (they grow once per new shape or stream);
//   - "torch.compile / CUDA graph memory": a frame of torch._inductor,
//     torch._dynamo, CUDA graph trees or torch.cuda.graphs (compiled
//     graphs and their private pools grow as new shapes are compiled),
//     whose block count held still over the last third (stillGrowing);
//   - "private pool memory (CUDA graphs, MemPool)": every live block of
//     the group sits in a private pool (Group.Private), and its block
//     count held still over the last third. A graph keeps the static tensors of its capture for its
//     replays; capturing another (a new shape) adds a pool, a step up
//     that is not a leak, whatever frames the capture ran under;
//   - "optimizer state (created at the first step)": torch.optim frames
//     and a block count that stopped growing within the first third of
//     the series (state tensors are created once per parameter).
//
// Graph and compile memory grows while new input shapes come: a warm-up
// that records a graph per shape bucket and then replays them plateaus,
// and a new shape or a recompilation later in the run steps the pool up
// once more and plateaus again. Shapes that never repeat (sequence
// lengths without padding buckets under
// torch.compile(mode="reduce-overhead")) record new graphs without end,
// each keeping its memory in the pool: that growth is not benign, and the
// group stays a suspect (GraphGrowth words why). Each new graph adds
// blocks, so the block count tells them apart, by the optimizer state's
// test of "stopped growing", read at the end the graphs need: the count
// held still over the last third of the series (stillGrowing). The
// optimizer's state is made at the first step and must have stopped
// within the first third; a graph may be recorded for a shape first seen
// mid-run (the generated corpus's "captured twice": a second capture at
// 30-70% of the run), which a first-third test would take for
// re-recording without end. A group seen at fewer than 3 points (a trace
// window's stream) cannot show either and stays suppressed as before.
func BuiltinSuppression(g *Group) string {
	compile, private := graphMemory(g)
	optim := false
	for _, f := range g.Stack {
		file := strings.ReplaceAll(f.File, `\`, "/")
		name := strings.ToLower(f.Name)
		switch {
		case strings.Contains(name, "cudnn") || strings.Contains(name, "cublas") ||
			strings.Contains(name, "getcurrentcudablashandle") || strings.Contains(name, "workspace"):
			return "cuDNN/cuBLAS workspace"
		case strings.Contains(file, "/torch/optim/"):
			optim = true
		}
	}
	switch {
	case private && !stillGrowing(g):
		return "private pool memory (CUDA graphs, MemPool)"
	case compile && !stillGrowing(g):
		return "torch.compile / CUDA graph memory"
	case optim && len(g.Blocks) >= 3 && !changedAfter(g.Blocks, len(g.Blocks)/3):
		return "optimizer state (created at the first step)"
	}
	return ""
}

// graphMemory reports whether group g's memory is torch.compile or
// CUDA-graph memory by its frames (compile: torch._inductor,
// torch._dynamo, CUDA graph trees, torch.cuda.graphs), and whether all
// its live blocks sit in a private pool (Group.Private).
func graphMemory(g *Group) (compile, private bool) {
	for _, f := range g.Stack {
		file := strings.ReplaceAll(f.File, `\`, "/")
		if strings.Contains(file, "/torch/_inductor/") || strings.Contains(file, "/torch/_dynamo/") ||
			strings.Contains(file, "cudagraph_trees") || strings.HasSuffix(file, "/torch/cuda/graphs.py") {
			compile = true
			break
		}
	}
	return compile, g.Private
}

// stillGrowing reports whether group g's block count changed within the
// last third of its series: graphs are still being recorded there, where
// a warm-up, or a shape first seen mid-run, has stopped. False with fewer
// than 3 points, where nothing tells.
func stillGrowing(g *Group) bool {
	n := len(g.Blocks)
	return n >= 3 && changedAfter(g.Blocks, n-n/3-1)
}

// changedAfter reports whether any count after index k differs from the
// one at k: the count did not stay put from k on.
func changedAfter(blocks []int, k int) bool {
	for _, b := range blocks[k:] {
		if b != blocks[k] {
			return true
		}
	}
	return false
}

// GraphGrowth returns the evidence that growing group g is CUDA-graph or
// torch.compile memory that goes on growing (BuiltinSuppression left it a
// suspect), nil when it is not such memory. Bytes and Of are its blocks
// at the first and the last point.
func GraphGrowth(g *Group) *Evidence {
	compile, private := graphMemory(g)
	if !compile && !private || !stillGrowing(g) {
		return nil
	}
	ev := &Evidence{Kind: EvidenceGraphGrowth, Bytes: int64(g.Blocks[0]), Of: int64(g.Blocks[len(g.Blocks)-1])}
	ev.Compile = compile
	return ev
}
