package words

import (
	"testing"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/placement"
)

// TestUsedByTool: the GPU logs' used memory is named by the tool that
// read it (rocm-smi, W&B, MLflow), nvidia-smi's as before, whatever the
// summary.json metric (gpu_used_bytes).
func TestUsedByTool(t *testing.T) {
	logs := []*gpulog.GPULog{
		{Source: input.Source{Path: "smi.csv"}, Format: gpulog.FormatQueryCSV},
		{Source: input.Source{Path: "rocm.csv"}, Format: gpulog.FormatRocmSMI},
		{Source: input.Source{Path: "wandb-events.jsonl"}, Format: gpulog.FormatWandbEvents},
		{Source: input.Source{Path: "mlflow/gpu_0_memory_usage_megabytes"}, Format: gpulog.FormatMLflowGPU},
	}
	for _, c := range []struct {
		sources    []string
		used, name string
	}{
		{[]string{"smi.csv"}, "nvidia-smi used", "nvidia-smi used"},
		{nil, "nvidia-smi used", "nvidia-smi used"},
		{[]string{"rocm.csv"}, "rocm-smi used", "rocm-smi used"},
		{[]string{"wandb-events.jsonl"}, "W&B used", "W&B used"},
		{[]string{"mlflow/gpu_0_memory_usage_megabytes"}, "MLflow used", "MLflow used"},
		{[]string{"smi.csv", "rocm.csv"}, "nvidia-smi + rocm-smi used", "nvidia-smi + rocm-smi used"},
	} {
		g := &placement.GPUSeries{Sources: c.sources, Tool: placement.ToolOf(logs, c.sources)}
		d := &analyze.Device{GPU: g}
		if got := DeviceUsed(d); got != c.used {
			t.Errorf("%v: DeviceUsed %q, want %q", c.sources, got, c.used)
		}
		tr := &analyze.Trend{Metric: analyze.MetricGPUUsed, Source: g.NamedTool()}
		if got := TrendName(tr); got != c.name {
			t.Errorf("%v: TrendName %q, want %q", c.sources, got, c.name)
		}
	}
	if got := DeviceUsed(&analyze.Device{}); got != "nvidia-smi used" {
		t.Errorf("no GPU log: %q", got)
	}
}
