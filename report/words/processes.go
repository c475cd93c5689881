package words

import (
	"fmt"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// GrowingProcess says how a process's used memory grows, after its name
// (Process): " on cuda:0: +720 MiB/hour (95% CI ...), p<0.001; peak 2.30
// GiB, last 2.30 GiB (180 readings, nvidia-smi)". d is the device it
// runs on, nil for a process of no device.
func GrowingProcess(d *analyze.Device, p *analyze.ProcessSeries) string {
	where := OtherGPU(p)
	if d != nil {
		where = Device(d.DeviceKey)
	}
	t := p.Trend
	return fmt.Sprintf(" on %s: %s, %s; peak %s, last %s (%s, nvidia-smi)",
		where, units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), units.Bytes(p.Peak), units.Bytes(p.Last), units.CountOf(len(p.Used), "reading"))
}
