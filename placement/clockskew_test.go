package placement

import (
	"math"
	"testing"
	"time"
)

const skewGiB = 1 << 30

// trainingRun builds a synthetic run in true (UTC) time: the job starts at
// t0+5 min, the allocator reserves base bytes and then grows by growth
// bytes per hour (a leak) until the job ends at t0+3 h; nvidia-smi's used
// is reserved plus a 500 MiB context while the job runs, 3 MiB otherwise.
// Snapshots are taken every 15 min from t0+10 min; the GPU log samples
// every 30 s from t0-2 h to t0+5 h and its times are shifted by logShift
// (the log's clock ahead of the truth). flat makes both series constant.
func trainingRun(logShift time.Duration, flat bool, base, growth int64) (snap, gpu []TimedValue) {
	t0 := time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)
	start, end := t0.Add(5*time.Minute), t0.Add(3*time.Hour)
	reserved := func(t time.Time) int64 {
		if t.Before(start) || !t.Before(end) {
			return 0
		}
		if flat {
			return base
		}
		return base + int64(t.Sub(start).Hours()*float64(growth))
	}
	for t := t0.Add(10 * time.Minute); t.Before(end); t = t.Add(15 * time.Minute) {
		// Snapshot reserved moves in 2 MiB steps: not exactly the log's.
		snap = append(snap, TimedValue{t, reserved(t) &^ (2<<20 - 1)})
	}
	for t := t0.Add(-2 * time.Hour); t.Before(t0.Add(5 * time.Hour)); t = t.Add(30 * time.Second) {
		used := int64(3 << 20)
		if r := reserved(t); r > 0 {
			used = r + 500<<20
		}
		gpu = append(gpu, TimedValue{t.Add(logShift), used})
	}
	if flat {
		// A flat job that runs through the whole log: nothing to align.
		for i := range gpu {
			gpu[i].Value = base + 500<<20
		}
	}
	return snap, gpu
}

func TestDetectClockOffset(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name         string
		logShift     time.Duration
		flat         bool
		base, growth int64         // bytes, bytes per hour
		want         time.Duration // 0: no report
	}{
		{"aligned", 0, false, 10 * skewGiB, skewGiB, 0},
		{"log 2 h ahead", 2 * time.Hour, false, 10 * skewGiB, skewGiB, 2 * time.Hour},
		{"log 5 h behind", -5 * time.Hour, false, 10 * skewGiB, skewGiB, -5 * time.Hour},
		{"log 1 h ahead", time.Hour, false, 10 * skewGiB, skewGiB, time.Hour},
		{"small job: the context dwarfs reserved", 3 * time.Hour, false, 100 * mib, 50 * mib, 3 * time.Hour},
		{"small job aligned", 0, false, 100 * mib, 50 * mib, 0},
		{"no overlap at any shift", 30 * time.Hour, false, 10 * skewGiB, skewGiB, 0},
		{"flat series cannot be aligned", 2 * time.Hour, true, 10 * skewGiB, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, gpu := trainingRun(tt.logShift, tt.flat, tt.base, tt.growth)
			off, ok := DetectClockOffset(snap, gpu)
			if ok != (tt.want != 0) || off.Shift != tt.want {
				t.Fatalf("DetectClockOffset = %+v, %v; want shift %v", off, ok, tt.want)
			}
			if ok && (off.Matched != len(snap) || off.ZeroCost-off.Cost < 0.05) {
				t.Errorf("offset %+v: want every snapshot matched and a clear cost gap", off)
			}
		})
	}
}

func TestDetectClockOffsetTooLittleData(t *testing.T) {
	snap, gpu := trainingRun(2*time.Hour, false, 10*skewGiB, skewGiB)
	if _, ok := DetectClockOffset(snap[:2], gpu); ok {
		t.Error("offset reported from two snapshots")
	}
	if _, ok := DetectClockOffset(snap, nil); ok {
		t.Error("offset reported without GPU readings")
	}
}

// TestClockOffsetExplain: an offset is stated as the hours the log is
// off, the zone it was read in and the --tz value that undoes it (none
// beyond real zones).
func TestClockOffsetExplain(t *testing.T) {
	plus4 := time.FixedZone("UTC+4", 4*3600)
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		shift   time.Duration
		assumed *time.Location
		want    ClockNote
	}{
		{-2 * time.Hour, plus4, ClockNote{Hours: -2, ReadAs: "+04:00", Zone: "+02:00"}},
		{2 * time.Hour, time.UTC, ClockNote{Hours: 2, ReadAs: "UTC", Zone: "+02:00"}},
		{-4 * time.Hour, plus4, ClockNote{Hours: -4, ReadAs: "+04:00", Zone: "UTC"}},
		{-5 * time.Hour, nil, ClockNote{Hours: -5, ReadAs: "UTC", Zone: "-05:00"}},
		{14 * time.Hour, plus4, ClockNote{Hours: 14, ReadAs: "+04:00"}},
	}
	for _, tt := range tests {
		o := ClockOffset{Shift: tt.shift}
		if got := o.Explain(tt.assumed, at); got != tt.want {
			t.Errorf("shift %v: %+v, want %+v", tt.shift, got, tt.want)
		}
	}
}

func TestClockCost(t *testing.T) {
	// Constant overhead: only the level term, a share of the largest used.
	if shape, level := clockCost([]float64{100, 100, 100}, 1000, 2000); shape != 0 || math.Abs(level-0.05) > 1e-12 {
		t.Errorf("constant overhead: shape %v level %v, want 0 and 0.05", shape, level)
	}
	// used below reserved is penalised twice.
	if shape, level := clockCost([]float64{-100, -100, -100}, 1000, 2000); math.Abs(shape-0.2) > 1e-12 || level != 0 {
		t.Errorf("violations: shape %v level %v, want 0.2 and 0", shape, level)
	}
}
