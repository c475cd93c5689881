package analyze

import (
	"strings"
	"testing"

	"gpureport/snapshot"
)

func TestParseSuppressions(t *testing.T) {
	file := "\ufeff# known leaks\n" +
		"fingerprint 3fa9c2d81b07   # ticket 12\n" +
		"\n" +
		"ABCDEF12\n" +
		"site data/*.py:*\n" +
		"function *warmup*\n" +
		"frame */apex/*\n"
	rules, err := ParseSuppressions("supp.txt", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := []Suppression{
		{SuppressFingerprint, "3fa9c2d81b07", "supp.txt:2", "ticket 12"},
		{SuppressFingerprint, "abcdef12", "supp.txt:4", ""},
		{SuppressSite, "data/*.py:*", "supp.txt:5", ""},
		{SuppressFunction, "*warmup*", "supp.txt:6", ""},
		{SuppressFrame, "*/apex/*", "supp.txt:7", ""},
	}
	if len(rules) != len(want) {
		t.Fatalf("rules %+v", rules)
	}
	for i := range want {
		if rules[i] != want[i] {
			t.Errorf("rule %d = %+v, want %+v", i, rules[i], want[i])
		}
	}

	bad := []struct{ text, msg string }{
		{"fingerprint xyz\n", "supp.txt:1: fingerprint \"xyz\" is not at least 6 hex digits"},
		{"\n\nsite\n", "supp.txt:3: want 'KIND PATTERN'"},
		{"stack foo\n", "supp.txt:1: unknown rule kind \"stack\""},
		{"site [a\n", "supp.txt:1: bad pattern"},
		{"frame a b c\n", "supp.txt:1: want 'KIND PATTERN'"},
	}
	for _, b := range bad {
		_, err := ParseSuppressions("supp.txt", []byte(b.text))
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: error %v, want %q", b.text, err, b.msg)
		}
	}
}

func TestSuppressionMatches(t *testing.T) {
	frames := stackAt("train.py", 57, "train_step")
	frames = append(frames, snapshot.Frame{File: "/opt/apex/optimizers/fused_adam.py", Line: 10, Name: "step"})
	sig := SignatureOf(frames)
	tests := []struct {
		rule string
		want bool
	}{
		{"fingerprint " + sig.Fingerprint[:8], true},
		{"fingerprint 000000", false},
		{"site train.py:57", true},
		{"site train.py:5?", true},
		{"site model.py:*", false},
		{"function train_*", true},
		{"frame */apex/*", true},
		{"frame fused_adam.py:10", true},
		{"frame /home/alice/proj/train.py:120", true},
		{"frame _call_impl", true},
		{"frame */megatron/*", false},
	}
	for _, tt := range tests {
		rules, err := ParseSuppressions("s", []byte(tt.rule))
		if err != nil {
			t.Fatal(err)
		}
		if got := rules[0].Matches(sig, frames); got != tt.want {
			t.Errorf("%q matches = %v, want %v", tt.rule, got, tt.want)
		}
	}
}

func TestBuiltinSuppression(t *testing.T) {
	tests := []struct {
		name   string
		frames []snapshot.Frame
		blocks []int
		want   string
	}{
		{"cudnn", append([]snapshot.Frame{cppFrame("at::native::getCudnnHandle workspace")}, stackAt("model.py", 9, "forward")...), []int{1, 2, 3}, "cuDNN/cuBLAS workspace"},
		{"cublas", append([]snapshot.Frame{cppFrame("at::cuda::getCurrentCUDABlasHandle()")}, stackAt("model.py", 9, "forward")...), []int{1, 2, 3}, "cuDNN/cuBLAS workspace"},
		// Graphs recorded per shape bucket in a warm-up, then replayed:
		// the block count stopped growing within the first third.
		{"inductor, warm-up then flat", append([]snapshot.Frame{torchFrame("_inductor/codecache.py", 10, "call")}, stackAt("model.py", 9, "forward")...), []int{3, 5, 7, 8, 8, 8, 8, 8, 8}, "torch.compile / CUDA graph memory"},
		// Shapes that never repeat: new graphs recorded without end.
		{"cudagraph trees re-recording", append([]snapshot.Frame{torchFrame("_inductor/cudagraph_trees.py", 2020, "_record")}, stackAt("train.py", 80, "forward_step")...), []int{2, 4, 6, 8, 10, 12, 14, 16}, ""},
		// A trace window's stream has no series to tell: as before.
		{"inductor, no series", append([]snapshot.Frame{torchFrame("_inductor/codecache.py", 10, "call")}, stackAt("model.py", 9, "forward")...), nil, "torch.compile / CUDA graph memory"},
		{"private pool, warm-up then flat", stackAt("train.py", 140, "forward"), []int{2, 4, 4, 4, 4, 4}, "private pool memory (CUDA graphs, MemPool)"},
		// A second capture mid-run (a new shape, a recompilation): a
		// step up that stopped a third of the run before its end.
		{"private pool, captured twice", stackAt("train.py", 140, "forward"), []int{4, 4, 8, 8, 8, 12, 12, 12, 12, 12}, "private pool memory (CUDA graphs, MemPool)"},
		// A new graph late in the run: still recording.
		{"private pool, a graph in the last third", stackAt("train.py", 140, "forward"), []int{4, 4, 4, 4, 4, 4, 4, 8, 8, 8}, ""},
		{"private pool still growing", stackAt("train.py", 140, "forward"), []int{2, 4, 6, 8, 10, 12}, ""},
		{"optimizer state settled", []snapshot.Frame{torchFrame("optim/adam.py", 120, "_init_group"), userFrame("train.py", 70, "step")}, []int{0, 4, 4, 4, 4, 4}, "optimizer state (created at the first step)"},
		{"optimizer still growing", []snapshot.Frame{torchFrame("optim/adam.py", 120, "_init_group"), userFrame("train.py", 70, "step")}, []int{0, 1, 2, 3, 4, 5}, ""},
		{"user leak", stackAt("train.py", 57, "train_step"), []int{1, 2, 3}, ""},
	}
	for _, tt := range tests {
		g := &Group{Signature: SignatureOf(tt.frames), Stack: tt.frames, Blocks: tt.blocks, Private: strings.HasPrefix(tt.name, "private")}
		if got := BuiltinSuppression(g); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		// What BuiltinSuppression leaves of graph memory is worded as
		// such (GraphGrowth), and nothing else is.
		graph := strings.Contains(tt.name, "graph") || strings.HasPrefix(tt.name, "private") || strings.HasPrefix(tt.name, "inductor")
		if e := GraphGrowth(g); (e != nil) != (graph && tt.want == "" && len(tt.blocks) > 0) {
			t.Errorf("%s: graph growth %+v", tt.name, e)
		}
	}
}
