package roles

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gpureport/analyze/frames"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// askDirectly answers q for stack s the way the rules once did, frame by
// frame, without masks: the reference the masks must agree with.
func askDirectly(fs []snapshot.Frame, q textQuery) bool {
	spec := textQueries[q]
	for _, f := range fs {
		text := f.Name
		if !frames.IsNative(f) {
			if spec.cpp {
				continue
			}
			text = frames.Path(f.File)
		} else if !spec.cpp {
			continue
		}
		if spec.except != "" && strings.Contains(text, spec.except) {
			continue
		}
		for _, sub := range spec.subs {
			if strings.Contains(text, sub) {
				return true
			}
		}
	}
	return false
}

// askFrameDirectly answers frame query q for Python frames py one frame
// at a time, without masks.
func askFrameDirectly(py []pyFrame, q frameQuery) bool {
	return slices.ContainsFunc(py, func(f pyFrame) bool { return frameQueries[q].answers(f) })
}

// checkMasks reads every stack of tab with one shared textMasks (as a
// run's memo does) and each frame read once for all the stacks (as a
// stackCache does), and requires each query's answer to be the direct
// one; it returns how many stacks answered each query yes.
func checkMasks(t *testing.T, name string, tab *snapshot.Stacks) [numTextQueries]int {
	t.Helper()
	var yes [numTextQueries]int
	c := &stackCache{st: tab, masks: newTextMasks()}
	for id := snapshot.StackID(1); int(id) < tab.Len(); id++ {
		fs := tab.StackFrames(id)
		s := c.read(id)
		fresh := readStack(fs)
		// The autograd nodes, kept by frame name, are each frame's own.
		var nodes []string
		for _, f := range fs {
			if node, ok := frames.AutogradNode(f); ok && frames.IsNative(f) {
				nodes = append(nodes, node)
			}
		}
		if !slices.Equal(s.nodes, nodes) || !slices.Equal(fresh.nodes, nodes) {
			t.Errorf("%s: stack %d: nodes %q with shared names, %q fresh, %q frame by frame", name, id, s.nodes, fresh.nodes, nodes)
		}
		// The Python frames and the call site, each frame's own too.
		var py []pyFrame
		var site strings.Builder
		for _, f := range fs {
			if !frames.IsNative(f) {
				py = append(py, pyFrame{file: frames.Path(f.File), name: f.Name})
				fmt.Fprintf(&site, "%s:%d|", f.File, f.Line)
			}
		}
		if !slices.Equal(s.py, py) || !slices.Equal(fresh.py, py) {
			t.Errorf("%s: stack %d: Python frames %v with frames read once, %v fresh, %v frame by frame", name, id, s.py, fresh.py, py)
		}
		if site.Len() > 0 && (s.site != site.String() || fresh.site != site.String()) {
			t.Errorf("%s: stack %d: site %q with frames read once, %q fresh, %q frame by frame", name, id, s.site, fresh.site, site.String())
		}
		for q := range numFrameQueries {
			want := askFrameDirectly(py, q)
			if s.call(q) != want || fresh.call(q) != want {
				t.Errorf("%s: stack %d, frame query %d: frames read once %v, fresh %v, frame by frame %v", name, id, q, s.call(q), fresh.call(q), want)
			}
		}
		for q := range numTextQueries {
			want := askDirectly(fs, q)
			if s.has(q) != want || fresh.has(q) != want {
				t.Errorf("%s: stack %d, query %d: shared masks %v, fresh masks %v, frame by frame %v", name, id, q, s.has(q), fresh.has(q), want)
			}
			if want {
				yes[q]++
			}
		}
	}
	return yes
}

// TestTextMasksAnswerAsFrames checks the text queries' and frame
// queries' masks against the frames read one by one, on stacks made to answer each query yes (and
// on look-alikes that must answer no), and on every stack of the real
// snapshots.
func TestTextMasksAnswerAsFrames(t *testing.T) {
	var tab snapshot.Stacks
	pyf := func(file string) snapshot.Frame { return snapshot.Frame{File: file, Line: 10, Name: "f"} }
	cppf := func(name string) snapshot.Frame { return snapshot.Frame{File: "??", Name: name} }
	var made int
	for _, spec := range textQueries {
		for _, sub := range spec.subs {
			var hit, miss snapshot.Frame
			if spec.cpp {
				hit, miss = cppf("ns::"+sub+"x"), pyf("/x/"+sub+".py")
			} else {
				hit, miss = pyf("/opt/site-packages/"+sub+"x.py"), cppf(sub)
			}
			base := []snapshot.Frame{cppf("c10::Alloc()"), pyf("/home/u/train.py")}
			ids := []snapshot.FrameID{tab.InternFrame(base[0]), tab.InternFrame(hit), tab.InternFrame(base[1])}
			tab.InternStack(ids)
			tab.InternStack([]snapshot.FrameID{tab.InternFrame(base[0]), tab.InternFrame(miss), tab.InternFrame(base[1])})
			made++
			if spec.except != "" {
				// A frame holding both the substring and the exception
				// answers no.
				var both snapshot.Frame
				if spec.cpp {
					both = cppf(sub + spec.except)
				} else {
					both = pyf("/x/" + sub + spec.except)
				}
				tab.InternStack([]snapshot.FrameID{tab.InternFrame(both)})
			}
		}
	}
	// A stack for each frame query that answers it yes, and one whose
	// frame misses by its function alone (or by its file, for a query of
	// any function).
	for q, spec := range frameQueries {
		file, name := "/home/u/x.py", "f"
		if len(spec.files) > 0 {
			file = "/opt/site-packages/" + spec.files[0] + "x.py"
		}
		switch {
		case len(spec.names) > 0:
			name = spec.names[0]
		case len(spec.parts) > 0:
			name = "_" + spec.parts[0] + "_hook"
		}
		miss := snapshot.Frame{File: file, Line: 10, Name: "zz_nothing"}
		if spec.names == nil && spec.parts == nil {
			miss.File = "/home/u/other.py"
		}
		hit := snapshot.Frame{File: file, Line: 10, Name: name}
		if !frameQueries[q].answers(pyFrame{file: frames.Path(hit.File), name: hit.Name}) ||
			frameQueries[q].answers(pyFrame{file: frames.Path(miss.File), name: miss.Name}) {
			t.Fatalf("frame query %d: the frames made for it do not answer yes and no", q)
		}
		tab.InternStack([]snapshot.FrameID{tab.InternFrame(cppf("c10::Alloc()")), tab.InternFrame(hit), tab.InternFrame(pyf("/home/u/train.py"))})
		tab.InternStack([]snapshot.FrameID{tab.InternFrame(miss), tab.InternFrame(pyf("/home/u/train.py"))})
	}
	yes := checkMasks(t, "made", &tab)
	for q := range numTextQueries {
		if yes[q] == 0 {
			t.Errorf("made stacks: query %d never answered yes", q)
		}
	}
	if made == 0 {
		t.Fatal("no stacks made")
	}

	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	var total [numTextQueries]int
	for _, f := range files {
		s, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		y := checkMasks(t, f, &s.Stacks)
		for q := range y {
			total[q] += y[q]
		}
	}
	t.Logf("real snapshots: stacks answering each query yes: %s", fmt.Sprint(total))
}

// TestFrameQueriesAnswer checks what each frame query asks of one Python
// frame: the file by substring, the function's name exactly (names) or by
// substring (parts), any file or any function where the query names none.
func TestFrameQueriesAnswer(t *testing.T) {
	tests := []struct {
		q          frameQuery
		file, name string
		want       bool
	}{
		{callModuleCall, "/usr/lib/python3/torch/nn/modules/module.py", "_call_impl", true},
		{callModuleCall, "/usr/lib/python3/torch/nn/modules/module.py", "_call_impl_x", false},
		{callModuleCall, "/usr/lib/python3/torch/nn/modules/linear.py", "_call_impl", false},
		{callModuleInit, "torch/nn/modules/linear.py", "__init__", true},
		{callAutogradBackward, "torch/autograd/__init__.py", "_engine_run_backward", true},
		{callTensorBackward, "torch/_tensor.py", "backward", true},
		{namedBackward, "/anywhere/model.py", "_backward_impl", true},
		{namedBackward, "/anywhere/model.py", "backward_hook", false},
		{namedForward, "/anywhere/model.py", "forward", true},
		{callFSDPReduce, "torch/distributed/fsdp/_runtime_utils.py", "_post_backward_hook", true},
		{callFSDPReduce, "torch/distributed/_composable/fsdp/_fsdp_collectives.py", "foreach_reduce", true},
		{callFSDPReduce, "torch/distributed/fsdp/_runtime_utils.py", "_pre_forward", false},
		{callZeROGradients, "deepspeed/runtime/zero/stage_1_and_2.py", "reduce_ipg_grads", true},
		{callZeROOptimizer, "deepspeed/runtime/bf16_optimizer.py", "_setup_for_real_optimizer_fp32", true},
		{namedOptimizerInit, "torch/optim/adam.py", "_init_group", true},
		{callModuleApply, "torch/nn/modules/module.py", "to", true},
		{callModuleApply, "torch/nn/modules/module.py", "total", false},
		{namedResetParameters, "torch/nn/modules/linear.py", "reset_parameters", true},
		{callInitWeight, "/home/u/model.py", "_init_weights", true},
		{callTransformersLoad, "transformers/modeling_utils.py", "from_pretrained", true},
		{callAccelerateSetDevice, "accelerate/utils/modeling.py", "set_module_tensor_to_device", true},
		{callAccelerateBigModeling, "accelerate/big_modeling.py", "anything", true},
		{callAccelerateBigModeling, "accelerate/modeling.py", "anything", false},
		{callTrainerPrepare, "transformers/trainer.py", "_prepare_inputs", true},
		{callMoveToDevice, "lightning/fabric/utilities/apply_func.py", "move_data_to_device", true},
		{namedTransferBatch, "/x/module.py", "transfer_batch_to_device", true},
		{callMegatronMaster, "/workspace/Megatron-LM/megatron/core/optimizer/optimizer.py", "__init__", true},
		{callMegatronMaster, "/workspace/Megatron-LM/megatron/core/optimizer/optimizer.py", "step", false},
		{callMegatronMaster, "/workspace/Megatron-LM/megatron/core/optimizer/distrib_optimizer.py", "__init__", false},
		{callMegatronShardMaster, "megatron/core/optimizer/distrib_optimizer.py", "_build_model_and_main_param_groups", true},
		{callApexMaster, "apex/amp/_process_optimizer.py", "lazy_init_with_master_weights", true},
		{callApexMaster, "apex/amp/_process_optimizer.py", "_master_params_to_model_params", false},
	}
	asked := map[frameQuery]bool{}
	for _, tt := range tests {
		if got := frameQueries[tt.q].answers(pyFrame{file: tt.file, name: tt.name}); got != tt.want {
			t.Errorf("query %d of %s %s: %v, want %v", tt.q, tt.file, tt.name, got, tt.want)
		}
		asked[tt.q] = true
	}
	for q := range numFrameQueries {
		if !asked[q] {
			t.Errorf("frame query %d is not asked here", q)
		}
	}
}
