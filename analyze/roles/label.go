package roles

import (
	"encoding/json"
	"strings"
	"unicode"
)

// User labels are free text: whatever a program passed to
// torch.cuda.memory._set_memory_metadata (a str, or since PyTorch 2.16 a
// dict stored as JSON) or torch.cuda.memory._annotate_tensor. A label
// decides a block's role when it names one: a JSON object's "role",
// "category" or "kind" field, else the first word of the text that is a
// role's name or one of its usual words (labelWords). A label that names
// no role ("step 3", {"phase": "backward"}) decides nothing.

// labelWords maps the words that name a role in a label (lower case).
var labelWords = map[string]Role{
	"parameters": Parameters, "parameter": Parameters, "params": Parameters, "param": Parameters,
	"weights": Parameters, "weight": Parameters, "buffers": Parameters, "buffer": Parameters,
	"gradients": Gradients, "gradient": Gradients, "grads": Gradients, "grad": Gradients,
	"optimizer_state": OptimizerState, "optimizer": OptimizerState, "optim": OptimizerState,
	"exp_avg": OptimizerState, "exp_avg_sq": OptimizerState, "momentum": OptimizerState,
	"momentum_buffer": OptimizerState, "master": OptimizerState,
	"activations": Activations, "activation": Activations, "acts": Activations, "act": Activations,
	"saved":       Activations,
	"temporaries": Temporaries, "temporary": Temporaries, "temp": Temporaries, "tmp": Temporaries,
	"scratch": Temporaries,
	"inputs":  Inputs, "input": Inputs, "batch": Inputs,
	"workspace": Workspace, "workspaces": Workspace, "nccl": Workspace, "cublas": Workspace, "cudnn": Workspace,
	"graph_pools": GraphPools, "graph_pool": GraphPools, "cudagraph": GraphPools, "cudagraphs": GraphPools,
}

// labelFields are the JSON fields whose value names a role.
var labelFields = []string{"role", "category", "kind"}

// labelRole returns the role that label text names, and false when it
// names none.
func labelRole(text string) (Role, bool) {
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		var obj map[string]any
		if json.Unmarshal([]byte(text), &obj) == nil {
			for _, f := range labelFields {
				if v, ok := obj[f].(string); ok {
					if r, ok := wordsRole(v); ok {
						return r, true
					}
				}
			}
			// Other fields ({"pool": "comm-buffers"}) name no role.
			return 0, false
		}
	}
	return wordsRole(text)
}

// wordsRole returns the role of the first word of text in labelWords:
// words are runs of letters, digits and underscores; a word with
// underscores is also tried in its parts ("optimizer_state", then
// "optimizer").
func wordsRole(text string) (Role, bool) {
	words := strings.FieldsFunc(strings.ToLower(text), func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_'
	})
	for _, w := range words {
		if r, ok := labelWords[w]; ok {
			return r, true
		}
		for _, part := range strings.Split(w, "_") {
			if r, ok := labelWords[part]; ok {
				return r, true
			}
		}
	}
	return 0, false
}
