package gpulog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// gpustat --json output: one pretty-printed object per query (see
// gpustat.go).

// sniffGpustatJSON reports whether head is gpustat --json output.
func sniffGpustatJSON(head []byte) bool {
	return bytes.Contains(head, []byte(`"query_time"`)) && bytes.Contains(head, []byte(`"gpus"`))
}

func readGpustatJSON(r io.Reader, b *logBuilder) error {
	lines := &lineCounter{r: r}
	d := json.NewDecoder(lines)
	d.UseNumber()
	for n := 1; ; n++ {
		var q map[string]any
		err := d.Decode(&q)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			// The rest cannot be framed: note where, keep what was read.
			b.skip(lines.n+1, "unreadable JSON object", fmt.Sprintf("object %d, byte %d: %v", n, d.InputOffset(), err))
			return nil
		}
		var at time.Time
		if v, ok := q["query_time"]; ok {
			at, _ = b.statsTime(v)
		}
		gpus, _ := q["gpus"].([]any)
		for _, gv := range gpus {
			b.gpustatGPU(n, at, gv)
		}
	}
}

// gpustatGPU reads one entry of a query's "gpus" list.
func (b *logBuilder) gpustatGPU(n int, at time.Time, gv any) {
	g, _ := gv.(map[string]any)
	idx, ok := jsonInt(g["index"])
	if !ok || idx < 0 || idx > 1<<20 {
		b.skip(n, "GPU without an index", fmt.Sprintf("object %d", n))
		return
	}
	mibOf := func(k string) int64 {
		if v, ok := jsonBytes(g[k], mib); ok {
			return v
		}
		return Unknown
	}
	s := unknownSample(int(idx), at)
	s.MemoryUsed, s.MemoryTotal = mibOf("memory.used"), mibOf("memory.total")
	for k, dst := range map[string]*float64{"utilization.gpu": &s.UtilizationGPU, "power.draw": &s.PowerW} {
		if v, ok := g[k].(json.Number); ok {
			if f, ok := parseNumber(string(v), ""); ok {
				*dst = f
			}
		}
	}
	uuid, _ := g["uuid"].(string)
	name, _ := g["name"].(string)
	b.device(GPU{Index: s.GPU, UUID: uuid, Name: name})
	b.log.Samples = append(b.log.Samples, s)
	procs, _ := g["processes"].([]any)
	for _, pv := range procs {
		p, _ := pv.(map[string]any)
		pid, ok := jsonInt(p["pid"])
		if !ok || pid <= 0 || pid > 1<<31 {
			continue
		}
		cmd, _ := p["command"].(string)
		used := Unknown
		if v, ok := jsonBytes(p["gpu_memory_usage"], mib); ok {
			used = v
		}
		b.log.Processes = append(b.log.Processes, ProcessSample{Time: at, GPU: s.GPU, UUID: uuid, PID: int(pid), Name: cmd, UsedMemory: used})
	}
}

// lineCounter counts the newlines read through it: roughly the line a
// streaming decoder has reached (it reads ahead by a buffer).
type lineCounter struct {
	r io.Reader
	n int
}

func (c *lineCounter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += bytes.Count(p[:k], []byte("\n"))
	return k, err
}
