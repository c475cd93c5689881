package words

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/snapshot"
)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// contains fails t when s lacks one of want or holds one of mustNot, or
// its parentheses do not read flat.
func contains(t *testing.T, what, s string, want, mustNot []string) {
	t.Helper()
	has(t, what, s, want, mustNot)
	if why := flaw(s); why != "" {
		t.Errorf("%s: sentence %s: %q", what, why, s)
	}
}

// has fails t when s lacks one of want or holds one of mustNot.
func has(t *testing.T, what, s string, want, mustNot []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s: %q\nlacks %q", what, s, w)
		}
	}
	for _, w := range mustNot {
		if strings.Contains(s, w) {
			t.Errorf("%s: %q\nhas %q", what, s, w)
		}
	}
}

// flaws are what a flat sentence never has: a parenthesis opened inside
// another (or doubled), parentheses back to back or closing twice, and a
// "(s)" plural.
var flaws = []*regexp.Regexp{
	regexp.MustCompile(`\([^()]*\(`),
	regexp.MustCompile(`\)\s?\(`),
	regexp.MustCompile(`\)\)`),
	regexp.MustCompile(`\w\(s\)`),
}

// flaw returns the first flaw of s's parentheses, "" when it reads flat.
// A call such as empty_cache() is code, not a parenthesis.
func flaw(s string) string {
	s = strings.ReplaceAll(s, "()", "")
	for _, re := range flaws {
		if m := re.FindString(s); m != "" {
			return "has " + m
		}
	}
	return ""
}

func TestFlaw(t *testing.T) {
	for s, bad := range map[string]bool{
		"grows +1.00 MiB/step (95% CI +0.90 to +1.10 MiB), p<0.001": false,
		"a (b; c), d (e)":                       false,
		"(empty_cache() or garbage collection)": false,
		"a (b (c))":                             true,
		"a (b) (c)":                             true,
		"x ((y)":                                true,
		"1 suspect(s)":                          true,
	} {
		if got := flaw(s) != ""; got != bad {
			t.Errorf("flaw(%q) = %q, want flawed %v", s, flaw(s), bad)
		}
	}
}

// TestProjection: wherever a projection is shown it says the wall-clock
// time left when the run's pace is known, even far beyond the run's
// length (a sample run's leak that fills the device in 45 minutes once
// read "does not reach 22.0 GiB within 10× the run's length"), and names
// the limit it projects against.
func TestProjection(t *testing.T) {
	cases := []struct {
		name    string
		per     string
		dev     analyze.Device
		p       analyze.Projection
		want    []string
		mustNot []string
	}{
		{"beyond the horizon, pace known", "step", analyze.Device{Capacity: 22*gib + 512*mib},
			analyze.Projection{Capacity: 22 * gib, Outside: 512 * mib, Remaining: 3327, RemainingLo: 3318, RemainingHi: 3335, Hours: 0.7437, HoursLo: 0.742, HoursHi: 0.746, Beyond: true, ExtrapolationRuns: 10},
			[]string{"reaches 22.0 GiB in about 45 min at the run's pace", "3,327 steps at this rate", "long extrapolation",
				"limit: 22.5 GiB device memory (GPU log memory.total) minus 512 MiB outside the allocator"},
			[]string{"does not reach", "45 min to 45 min"}},
		{"within the run, hours interval, the user's capacity", "step",
			analyze.Device{Capacity: 40 * gib, CapacitySource: analyze.CapacitySource{Option: "--capacity 40GiB", Overrides: 80 * gib}},
			analyze.Projection{Capacity: 40 * gib, Remaining: 41567, RemainingLo: 37788, RemainingHi: 46185, Hours: 69.4, HoursLo: 62.9, HoursHi: 77.0, ExtrapolationRuns: 10},
			[]string{"in about 2.89 days at the run's pace (95% CI 2.62 days to 3.21 days; 41,567 steps at this rate)",
				"limit: 40.0 GiB device memory (--capacity 40GiB, overriding the GPU log's memory.total 80.0 GiB)"},
			[]string{"extrapolation"}},
		{"the capture manifest's capacity", "hour",
			analyze.Device{Capacity: 40 * gib, CapacitySource: analyze.CapacitySource{Manifest: "rank0/gpureport-capture.json"}},
			analyze.Projection{Capacity: 40 * gib, Remaining: 3.5, RemainingLo: 3, RemainingHi: 4, ExtrapolationRuns: 10},
			[]string{"limit: 40.0 GiB device memory (the GPU's total memory in the capture manifest rank0/gpureport-capture.json)"}, nil},
		{"pace unknown", "step", analyze.Device{Capacity: 80 * gib},
			analyze.Projection{Capacity: 80 * gib, Remaining: 1200, RemainingLo: 1000, RemainingHi: math.Inf(1), ExtrapolationRuns: 10},
			[]string{"reaches 80.0 GiB in about 1,200 steps (95% CI 1,000 steps to never; the run's pace in time is unknown)"},
			[]string{"at the run's pace"}},
		{"hour axis", "hour", analyze.Device{Capacity: 80 * gib},
			analyze.Projection{Capacity: 80 * gib, Remaining: 3.5, RemainingLo: 3, RemainingHi: 4, ExtrapolationRuns: 10},
			[]string{"reaches 80.0 GiB in about 3.50 hours", "95% CI 3.00 hours to 4.00 hours"}, nil},
		{"already over", "step", analyze.Device{Capacity: 80 * gib},
			analyze.Projection{Capacity: 80 * gib, Remaining: 0},
			[]string{"already at or over the limit (80.0 GiB); limit: 80.0 GiB device memory (GPU log memory.total)"}, nil},
	}
	for _, c := range cases {
		p := c.p
		tr := &analyze.Trend{Per: analyze.Axis(c.per), State: analyze.StateGrowing, Projection: &p}
		contains(t, c.name, Projection(&c.dev, tr), c.want, c.mustNot)
	}
	if got := Projection(&analyze.Device{}, nil); got != "" {
		t.Errorf("nil trend: %q", got)
	}
}

// TestTrendReasons: each rule of the trend verdict says why, with its
// numbers; a stack group that grew into an OOM says so first.
func TestTrendReasons(t *testing.T) {
	base := analyze.Trend{Per: "step", N: 12, Given: 12, Slope: float64(mib), Lo: 0.9 * float64(mib), Hi: 1.1 * float64(mib), PValue: 0.02, Growth: 11 * float64(mib),
		Method: analyze.MethodTheilSen, ChangePoint: 4, FitFrom: 3, StepPValue: 0.3, MoreNeeded: 6}
	for _, tt := range []struct {
		why  analyze.TrendWhy
		edit func(*analyze.Trend)
		want string
	}{
		{analyze.TrendWhy{Rule: analyze.RuleTooFew, MinPoints: 5}, func(t *analyze.Trend) { t.Given, t.MoreNeeded = 3, 2 }, "3 points; a trend verdict needs at least 5 (about 2 more)"},
		{analyze.TrendWhy{Rule: analyze.RuleOneStep, Jump: float64(gib)}, nil, "one level change of +1.00 GiB at point 4 explains the rise (no trend on either side: p=0.30)"},
		{analyze.TrendWhy{Rule: analyze.RuleStopped, Observed: float64(mib), Expected: float64(8 * mib)}, nil, "growth stopped after point 4: the rest rose 1.00 MiB where steady growth gives 8.00 MiB"},
		{analyze.TrendWhy{Rule: analyze.RulePlateau, Tail: 5}, nil, "grew until point 4, then stayed flat over the last 5 points"},
		{analyze.TrendWhy{Rule: analyze.RuleGrows}, func(t *analyze.Trend) { t.Pattern = analyze.PatternOnset }, "grows +1.00 MiB/step (95% CI +0.90 to +1.10 MiB), p=0.02; +11.0 MiB over the fitted range, from point 3 on (flat before it)"},
		{analyze.TrendWhy{Rule: analyze.RuleBounded, Alpha: 0.01, Bound: float64(4 * mib)}, nil, "no significant growth, p=0.02 > 0.01; slope +1.00 MiB/step (95% CI +0.90 to +1.10 MiB); at most 4.00 MiB over the fitted range"},
		{analyze.TrendWhy{Rule: analyze.RuleThin, Alpha: 0.05}, nil, "but the evidence is thin (the slope's 95% interval reaches 0); about 6 more points at the same pace would decide it"},
		{analyze.TrendWhy{Rule: analyze.RuleGrows, UntilOOM: float64(2 * gib)}, nil, "grew 2.00 GiB over the run without ever falling and filled the device until the OOM; its trend alone: grows"},
	} {
		tr := base
		tr.Why = tt.why
		if tt.edit != nil {
			tt.edit(&tr)
		}
		contains(t, string(tt.why.Rule), TrendReason(&tr), []string{tt.want}, nil)
	}
	tied := base
	tied.Method, tied.Tied, tied.Floor, tied.Given = analyze.MethodLeastSquares, true, 8, 20
	if got, want := Method(&tied), "least squares on the low points between drops (8 of 20 points) (Theil-Sen is 0 with this many ties)"; got != want {
		t.Errorf("method %q, want %q", got, want)
	}
}

// leakFindings is a device leaking at seven sites, the top ones in
// lockstep as given, its top suspect's site of kind kind.
func leakFindings(site string, kind analyze.SiteKind, lockstep []int) *analyze.Findings {
	d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: input.NoRank}}
	for j := range 7 {
		s := fmt.Sprintf("model.py:%d", 80+j)
		if j == 0 {
			s = site
		}
		d.Groups = append(d.Groups, analyze.Group{Signature: analyze.Signature{Site: s, Function: "forward", Kind: kind}})
		d.Suspects = append(d.Suspects, analyze.Suspect{Site: s, Function: "forward", Fingerprint: fmt.Sprintf("%012d", j), Group: j})
		d.LeakSites = append(d.LeakSites, analyze.LeakSite{Site: s, Function: "forward", Suspects: []int{j}})
	}
	d.Lockstep = lockstep
	f := &analyze.Findings{Devices: []*analyze.Device{d}}
	f.Verdict.Leak = true
	for j := range d.Suspects {
		f.Verdict.Suspects = append(f.Verdict.Suspects, analyze.SuspectRef{DeviceKey: d.DeviceKey, Index: j})
	}
	return f
}

// TestNextSteps: each step names what to change or where to look, with
// settings and sites as code (Markdown code spans, <code> on the page).
func TestNextSteps(t *testing.T) {
	md := func(s Sentence) string {
		var b strings.Builder
		for _, p := range s {
			if p.Code {
				b.WriteString("`" + p.Text + "`")
			} else {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	top := analyze.SuspectRef{DeviceKey: analyze.DeviceKey{Rank: input.NoRank}, Index: 0}
	for _, tt := range []struct {
		name string
		f    *analyze.Findings
		step analyze.NextStep
		want string
	}{
		{"seven sites in lockstep", leakFindings("model.py:80", analyze.SiteUser, []int{0, 1, 2, 3, 4, 5, 6}), analyze.NextStep{Kind: analyze.StepLookLockstep, OOM: -1, Suspect: top},
			"7 leak sites grow in lockstep (`model.py:80`, `model.py:81`, `model.py:82`, `model.py:83`, `model.py:84`, and 2 more): one object probably keeps all their tensors alive"},
		{"a line of user code", leakFindings("model.py:80", analyze.SiteUser, nil), analyze.NextStep{Kind: analyze.StepLookSite, OOM: -1, Suspect: top},
			"Look at `model.py:80` in `forward`: tensors allocated there stay alive across steps."},
		{"an autograd node", leakFindings("MulBackward0 (autograd)", analyze.SiteNative, nil), analyze.NextStep{Kind: analyze.StepLookAutograd, OOM: -1, Suspect: top},
			"Tensors that autograd's backward pass makes at `MulBackward0 (autograd)` (in `forward`) stay alive across steps."},
		{"an operator", leakFindings("aten::linear", analyze.SiteNative, nil), analyze.NextStep{Kind: analyze.StepLookNative, OOM: -1, Suspect: top},
			"Look for what calls `aten::linear` (in `forward`): tensors allocated there stay alive across steps, and their stacks hold C++ frames only"},
		{"no stacks at all", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepRecordStacks, OOM: -1},
			"The growing memory carries no stacks, so its site is unknown. Record them: call `torch.cuda.memory._record_memory_history(max_entries=100000, stacks=\"all\")`"},
		{"some stacks", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepRecordStacks, OOM: -1, WithStacks: true},
			"allocations made in autograd's backward thread carry none: record with `torch.cuda.memory._record_memory_history(max_entries=100000, stacks=\"all\")`"},
		{"other processes", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepOutsideOthers, OOM: -1, Devices: []analyze.DeviceKey{{Rank: input.NoRank}, {Rank: 1, Device: 0}}},
			"grows in other processes on the same GPU (cuda:0, rank 1 · cuda:0), not in this run"},
		{"outside the allocator", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepOutsideAllocator, OOM: -1}, "NCCL buffers"},
		{"fragmentation, expandable segments on", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepPadShapes, OOM: -1, GCThreshold: true},
			"Pad variable shapes (sequence lengths, batch sizes) to a few fixed sizes so that freed blocks fit the next requests, or try `" + analyze.GCThresholdSetting + "` so that"},
		{"fragmentation", &analyze.Findings{}, analyze.NextStep{Kind: analyze.StepTryExpandable, OOM: -1}, "Fragmentation: try `" + analyze.ExpandableSetting + "`, which lets segments grow"},
	} {
		// A step's code (a call with its arguments) may sit in
		// parentheses; its text reads flat.
		step := NextStep(tt.f, tt.step)
		has(t, tt.name, md(step), []string{tt.want}, nil)
		var text strings.Builder
		for _, p := range step {
			if !p.Code {
				text.WriteString(p.Text)
			}
		}
		if why := flaw(text.String()); why != "" {
			t.Errorf("%s: sentence %s: %q", tt.name, why, text.String())
		}
	}
}

// TestOutside: growth outside the allocator says whose it is when the
// per-process readings tell.
func TestOutside(t *testing.T) {
	proc := func(pid int, name string, slope float64) analyze.ProcessSeries {
		tr := &analyze.Trend{Per: "step", Slope: slope, State: analyze.StateFlat}
		if slope > 0 {
			tr.State = analyze.StateGrowing
		}
		return analyze.ProcessSeries{PID: pid, Name: name, Trend: tr}
	}
	train, trainGrows := proc(1111, "python train.py", 0), proc(1111, "python train.py", float64(40*mib))
	eval, evalFlat, serve := proc(2222, "python eval.py", float64(40*mib)), proc(2222, "python eval.py", 0), proc(3333, "python serve.py", float64(40*mib))
	for _, tt := range []struct {
		name   string
		procs  []analyze.ProcessSeries
		owners *analyze.ProcessOwners
		want   string
	}{
		{"another process grows", []analyze.ProcessSeries{train, eval}, &analyze.ProcessOwners{Own: 0, Growing: []int{1}},
			"; per-process readings on its GPU put the growth in other processes: python eval.py (pid 2222) grows +40.0 MiB/step; this run's process, python train.py (pid 1111), the one holding the allocator's reserved memory, does not grow"},
		{"the run's process grows", []analyze.ProcessSeries{trainGrows, evalFlat}, &analyze.ProcessOwners{Own: 0, Still: []int{1}},
			"; per-process readings on its GPU: this run's process python train.py (pid 1111) grows +40.0 MiB/step"},
		{"both grow", []analyze.ProcessSeries{trainGrows, eval}, &analyze.ProcessOwners{Own: 0, Growing: []int{1}},
			"this run's process python train.py (pid 1111) grows +40.0 MiB/step, and other processes grow too: python eval.py (pid 2222) grows +40.0 MiB/step"},
		{"the run's process unknown", []analyze.ProcessSeries{serve, train}, &analyze.ProcessOwners{Own: -1, Growing: []int{0}, Still: []int{1}},
			"; per-process readings on its GPU: python serve.py (pid 3333) grows +40.0 MiB/step; python train.py (pid 1111) does not"},
	} {
		d := &analyze.Device{Processes: &analyze.ProcessSet{Series: tt.procs}, Reconciliation: &analyze.Reconciliation{OutsideLeak: true, Level: float64(gib),
			Trend: &analyze.Trend{Per: "step", Slope: float64(mib), Lo: float64(mib), Hi: float64(mib), PValue: 1e-6, State: analyze.StateGrowing},
			Why:   analyze.OutsideWhy{Rule: analyze.OutsideGrows, Owners: tt.owners}}}
		contains(t, tt.name, Outside(d), []string{"memory outside the caching allocator (nvidia-smi used − reserved) grows +1.00 MiB/step", tt.want}, nil)
	}
}

// TestMemoryStatsWords: the verdict's line for a rise of num_ooms, and
// what the retries counter did.
func TestMemoryStatsWords(t *testing.T) {
	d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: input.NoRank}, Capacity: 80 * gib, MemoryStats: &analyze.MemoryStatsSeries{
		OOMs: []analyze.MemoryStatsOOM{{Prev: analyze.Reading{Index: 69, Step: 690}, At: analyze.Reading{Index: 70, Step: 700}, Before: 0, After: 1,
			Allocated: 4*gib + 700*mib, Reserved: 5*gib + 700*mib}},
		Retries: &analyze.AllocRetries{First: 0, Last: 19, Rises: 19, Readings: 100, Growing: true, LastRise: analyze.Reading{Index: 95, Step: 950}},
	}}
	f := &analyze.Findings{Devices: []*analyze.Device{d}}
	contains(t, "reason", Reason(f, analyze.Reason{Kind: analyze.ReasonStatsOOM, Device: d.DeviceKey}),
		[]string{"OOM on cuda:0 (torch.cuda.memory_stats): num_ooms rose from 0 to 1 between step 690 and step 700; at step 700: allocated 4.68 GiB, reserved 5.68 GiB, device 80.0 GiB"}, nil)
	contains(t, "list", StatsOOM(d.MemoryStats.OOMs[0]), []string{"num_ooms 0 → 1 between step 690 and step 700 (allocated 4.68 GiB, reserved 5.68 GiB)"}, nil)
	// One wording of a reading: steps with thousands separators,
	// wherever they are named.
	if got := Reading(analyze.Reading{Step: 1200}); got != "step 1,200" {
		t.Errorf("reading %q, want step 1,200", got)
	}
	if got := Reading(analyze.Reading{Index: 12, Step: input.NoStep}); got != "reading 12" {
		t.Errorf("reading %q, want reading 12", got)
	}
	for _, expandable := range []bool{false, true} {
		n := Note(f, analyze.Note{Kind: analyze.NoteRetries, Device: d.DeviceKey, Expandable: expandable})
		want := []string{"cuda:0: num_alloc_retries keeps growing: from 0 to 19 over 100 readings, rising at 19 of them, the last at step 950"}
		var not []string
		if expandable {
			want, not = append(want, "expandable segments are already on"), []string{analyze.ExpandableSetting}
		} else {
			want = append(want, "try "+analyze.ExpandableSetting)
		}
		contains(t, fmt.Sprintf("retries note, expandable %v", expandable), n, want, not)
	}
}

// TestOOMWords: an OOM's explanation names the settings in force, or
// says the snapshot does not record them (never calling them the
// defaults); its verdict line leaves out what the input did not give.
func TestOOMWords(t *testing.T) {
	o := analyze.OOM{Rank: input.NoRank, Requested: 2 * gib, DeviceFree: 300 * mib, Reserved: 70 * gib, Allocated: 60 * gib, CachedFree: 10 * gib,
		LargestFree: gib, Cause: analyze.CauseFragmentation, EstimatedCapacity: 70*gib + 300*mib}
	contains(t, "unrecorded settings", Explanation(&o), []string{"This is a fragmentation OOM", "not recorded in the snapshot"}, []string{"defaults"})
	o.Expandable = true
	contains(t, "expandable segments seen", Explanation(&o), []string{"not recorded, but the segments are expandable, so expandable_segments:True"}, nil)
	o.Settings = snapshot.AllocatorSettings{Present: true, Conf: "max_split_size_mb:512", MaxSplitSize: 512 * mib}
	contains(t, "recorded settings", Explanation(&o), []string{`PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:512" (expandable_segments false, max_split_size 512 MiB, garbage_collection_threshold 0)`}, []string{"not recorded"})
	split := analyze.Recommendation{Kind: analyze.StepMaxSplit, MaxSplitMiB: 1024}
	o.Settings.Present = false
	contains(t, "max split, unrecorded", Recommendation(&o, split).String(), []string{"PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:1024: the snapshot does not record max_split_size"}, nil)
	o.Settings = snapshot.AllocatorSettings{Present: true, MaxSplitSize: -1}
	contains(t, "max split, unset", Recommendation(&o, split).String(), []string{"max_split_size is unset, so large cached blocks"}, []string{"does not record"})

	msg := analyze.OOM{Path: "train.log", Rank: input.NoRank, Requested: 6 * mib, DeviceFree: -1, Reserved: -1, Allocated: -1, CachedFree: -1, LargestFree: -1,
		Cause: analyze.CauseUnknown, Message: &analyze.OOMMessage{Line: 12, Count: 3, Kind: analyze.MessageNCCL, GPU: -1}}
	contains(t, "NCCL message", Explanation(&msg), []string{"NCCL could not allocate device memory (6.00 MiB requested), says line 12 of train.log (written 3 times); the message names no device, so it is shown on device 0"}, nil)
	contains(t, "reason with unknown figures", OOMReason(&msg), []string{"unknown OOM on cuda:0: 6.00 MiB requested"}, []string{"-1 B", "free on the device", "cached free"})
}

// TestHeadline: the top leak, with the other sites and their rate in all;
// a leak without a site says why.
func TestHeadline(t *testing.T) {
	f := leakFindings("train.py:57", analyze.SiteUser, nil)
	d := f.Devices[0]
	d.Suspects[0].Trend = analyze.Trend{Per: "step", Slope: float64(mib)}
	f.Verdict.OtherSites, f.Verdict.SitesRate = 2, float64(3*mib)
	f.Verdict.Severity = analyze.SeverityWarning
	if got, want := Headline(f), "Leak at train.py:57 (+1.00 MiB/step) and 2 more sites, +3.00 MiB/step in all"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	f = &analyze.Findings{Verdict: analyze.Verdict{Leak: true, NoSite: analyze.NoSiteSnapshots, OOM: true, OOMs: 2,
		OOMCauses: []analyze.OOMCause{analyze.CauseLeak, analyze.CauseLeak}, Severity: analyze.SeverityCritical}}
	if got, want := Headline(f), "Leak (no site: no snapshots); 2 OOMs (leak)"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// OOMs the job caught and went on from say so.
	f = &analyze.Findings{Verdict: analyze.Verdict{OOM: true, OOMs: 2, OOMsHandled: 2,
		OOMCauses: []analyze.OOMCause{analyze.CauseFragmentation, analyze.CauseFragmentation}, Severity: analyze.SeverityWarning}}
	if got, want := Headline(f), "2 OOMs caught and recovered (fragmentation)"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	f.Verdict.OOMs, f.Verdict.OOMsHandled = 3, 1
	if got, want := Headline(f), "3 OOMs (fragmentation), 1 of them caught and recovered"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	o := analyze.OOM{Path: "train.log", Rank: input.NoRank, Requested: 3 << 30, DeviceFree: 1 << 30, CachedFree: 2 << 30, LargestFree: -1, Cause: analyze.CauseFragmentation, Handled: true,
		Message: &analyze.OOMMessage{Line: 7}}
	f = &analyze.Findings{OOMs: []analyze.OOM{o, o}, Verdict: analyze.Verdict{Reasons: []analyze.Reason{{Kind: analyze.ReasonOOM, Index: 0}, {Kind: analyze.ReasonOOM, Index: 1}}}}
	if got, want := Reasons(f), []string{"fragmentation OOM on cuda:0: 3.00 GiB requested, 1.00 GiB free on the device, 2.00 GiB cached free; caught and recovered: the log says the job went on after it (train.log); 2 OOMs alike"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reasons %q, want %q", got, want)
	}
	// A snapshot's OOM whose trace goes on says so.
	o.Path, o.Message = "memory_snapshot.pickle", nil
	f.OOMs = []analyze.OOM{o}
	f.Verdict.Reasons = f.Verdict.Reasons[:1]
	if got, want := Reasons(f), []string{"fragmentation OOM on cuda:0: 3.00 GiB requested, 1.00 GiB free on the device, 2.00 GiB cached free; caught and recovered: its trace shows the training loop's steps again after it, as only a process that caught the OOM does (memory_snapshot.pickle)"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reasons %q, want %q", got, want)
	}
}

// TestNotesFolded: the same caveat on many devices is one note naming
// them (at most eight, then how many more), where the first of them
// stood; a caveat on one device stays its own.
func TestNotesFolded(t *testing.T) {
	f := &analyze.Findings{Thresholds: analyze.Thresholds{MinPoints: 5}}
	f.Notes = append(f.Notes, analyze.Note{Kind: analyze.NoteText, Text: "first"})
	for i := range 10 {
		k := analyze.DeviceKey{Rank: i}
		f.Devices = append(f.Devices, &analyze.Device{DeviceKey: k})
		f.Notes = append(f.Notes, analyze.Note{Kind: analyze.NoteOneSnapshot, Device: k}, analyze.Note{Kind: analyze.NoteFewSnapshots, Device: k, Count: 2 + i%2})
	}
	f.Notes = append(f.Notes, analyze.Note{Kind: analyze.NoteSkipped, Count: 3})
	got := Notes(f)
	want := []string{
		"first",
		"10 devices have one snapshot each (rank 0 · cuda:0, rank 1 · cuda:0, rank 2 · cuda:0, rank 3 · cuda:0, rank 4 · cuda:0, rank 5 · cuda:0, rank 6 · cuda:0, rank 7 · cuda:0 and 2 more): no trend can be fitted; the trace window is the only evidence of growth",
		"5 devices have 2 snapshots each (rank 0 · cuda:0, rank 2 · cuda:0, rank 4 · cuda:0, rank 6 · cuda:0, rank 8 · cuda:0): a trend verdict needs at least 5",
		"5 devices have 3 snapshots each (rank 1 · cuda:0, rank 3 · cuda:0, rank 5 · cuda:0, rank 7 · cuda:0, rank 9 · cuda:0): a trend verdict needs at least 5",
		"3 input files could not be used (see the inputs table)",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("notes\n%q\nwant\n%q", got, want)
	}
}

// summaryProseKeys are the summary.json keys whose strings are sentences
// for a reader (the rest are names, paths and enumerations).
var summaryProseKeys = map[string]bool{
	"reason": true, "reasons": true, "explanation": true, "evidence": true, "notes": true,
	"headline": true,
}

// TestSummarySentencesFlat: the words are flat as every report shows
// them: no sentence in the golden summary.json files (the sample run's,
// the fixture's and the logs-only fixture's) has doubled parentheses,
// parentheses back to back or inside parentheses, or a "(s)" plural. A
// call such as empty_cache() is code, not a parenthesis.
func TestSummarySentencesFlat(t *testing.T) {
	files := []string{
		filepath.Join("..", "testdata", "golden", "summary.json"),
		filepath.Join("..", "testdata", "golden", "logs-only", "summary.json"),
		filepath.Join("..", "..", "testdata", "golden", "sample-run", "summary.json"),
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		n := 0
		var walk func(v any, key string)
		walk = func(v any, key string) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					walk(x, k)
				}
			case []any:
				for _, x := range v {
					walk(x, key)
				}
			case string:
				if summaryProseKeys[key] {
					n++
					if why := flaw(v); why != "" {
						t.Errorf("%s: %s %s:\n%s", file, key, why, v)
					}
				}
			}
		}
		walk(doc, "")
		if n == 0 {
			t.Errorf("%s: no sentences found", file)
		}
	}
}

// TestReasonsOOMsAlike checks that OOMs whose sentences read the same are
// one sentence saying how many they are, where the first stands, and
// that OOMs with other figures keep their own.
func TestReasonsOOMsAlike(t *testing.T) {
	oom := func(free int64) analyze.OOM {
		return analyze.OOM{Cause: analyze.CauseCapacity, Rank: input.NoRank, Requested: 80 * gib, DeviceFree: 40 * gib, LargestFree: free, CachedFree: -1}
	}
	f := &analyze.Findings{OOMs: []analyze.OOM{oom(20 * mib), oom(15 * mib), oom(20 * mib), oom(20 * mib)}}
	for i := range f.OOMs {
		f.Verdict.Reasons = append(f.Verdict.Reasons, analyze.Reason{Kind: analyze.ReasonOOM, Index: i})
	}
	got := Reasons(f)
	if len(got) != 2 {
		t.Fatalf("%d sentences, want 2: %q", len(got), got)
	}
	contains(t, "three alike", got[0], []string{"largest cached free block 20.0 MiB", "; 3 OOMs alike"}, nil)
	contains(t, "one apart", got[1], []string{"largest cached free block 15.0 MiB"}, []string{"alike"})
	f.OOMs = f.OOMs[:2]
	f.Verdict.Reasons = f.Verdict.Reasons[:2]
	for _, s := range Reasons(f) {
		has(t, "no two alike", s, nil, []string{"alike"})
	}
}

// TestMemoryGrowsFollowsReason: the "memory grows" sentence quotes the
// trend its reason names (Reason.Metric, decided in analyze), not one the
// words choose: with a reserved and a used trend both growing, each
// metric gets its own wording and rate; a reason naming no trend still
// reads as one sentence.
func TestMemoryGrowsFollowsReason(t *testing.T) {
	d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: 0}, PrimaryMetric: analyze.MetricReserved, Trends: []analyze.Trend{
		{Metric: analyze.MetricReserved, Source: analyze.SourceMemoryStats, Per: "step", Slope: float64(5 * mib), Lo: float64(4 * mib), Hi: float64(6 * mib), PValue: 1e-6, Growth: float64(450 * mib), State: analyze.StateGrowing},
		{Metric: analyze.MetricGPUUsed, Per: "hour", Slope: float64(720 * mib), Lo: float64(700 * mib), Hi: float64(740 * mib), PValue: 1e-9, Growth: float64(360 * mib), State: analyze.StateGrowing},
	}}
	f := &analyze.Findings{Devices: []*analyze.Device{d}}
	for _, tc := range []struct {
		metric        string
		want, mustNot []string
	}{
		{analyze.MetricReserved, []string{"memory grows on rank 0 · cuda:0 (no site: no snapshots): reserved memory grows +5.00 MiB/step", "a growing cache"}, []string{"720 MiB/hour", "nvidia-smi"}},
		{analyze.MetricGPUUsed, []string{"memory grows on rank 0 · cuda:0 (no site: no snapshots): nvidia-smi used memory grows +720 MiB/hour", "record snapshots"}, []string{"5.00 MiB/step", "reserved memory"}},
		{"", []string{"memory grows on rank 0 · cuda:0 (no site: no snapshots)"}, []string{"MiB"}},
	} {
		contains(t, "reason on "+tc.metric, Reason(f, analyze.Reason{Kind: analyze.ReasonMemoryGrows, Device: d.DeviceKey, Metric: tc.metric}), tc.want, tc.mustNot)
	}
}

// TestNoteOOMRepeated: the note names the file an OOM is shown from and
// the files that repeat it.
func TestNoteOOMRepeated(t *testing.T) {
	f := &analyze.Findings{}
	n := analyze.Note{Kind: analyze.NoteOOMRepeated, Device: analyze.DeviceKey{Rank: 1, Device: 1}, Paths: [2]string{"slurm-5.out"}, Text: "logs/none_x/attempt_0/1/error.json"}
	want := "the OOM on rank 1 · cuda:1 in slurm-5.out is repeated in logs/none_x/attempt_0/1/error.json, with every figure the same: copies of the same process's output (a tee, a tracker's console capture, an error file), counted once"
	if got := Note(f, n); got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	n.Count = 2
	if got, want := Note(f, n), "the 2 OOMs on rank 1 · cuda:1 in slurm-5.out are repeated in logs/none_x/attempt_0/1/error.json, with every"; !strings.HasPrefix(got, want) {
		t.Errorf("note %q, want it to start %q", got, want)
	}
}

// TestExplanationHandledRepeated: a message's explanation says where
// else it is written and that the job went on after it.
func TestExplanationHandledRepeated(t *testing.T) {
	o := analyze.OOM{Path: "train.log", Rank: input.NoRank, Requested: 3 << 30, DeviceFree: 1 << 30, Reserved: -1, Allocated: -1, CachedFree: 2 << 30, LargestFree: -1,
		Cause: analyze.CauseFragmentation, Handled: true, RepeatedIn: []string{"wandb/run-1/files/output.log"},
		Message: &analyze.OOMMessage{Line: 4, Count: 1, Kind: analyze.OOMMessageKind(gpulog.OOMTorch), GPU: 0, Total: -1, ProcessInUse: -1, Allowed: -1, OtherProcesses: -1, OtherAllocations: -1}}
	contains(t, "handled and repeated", Explanation(&o), []string{"line 4 of train.log; the same message is also in wandb/run-1/files/output.log, counted once; the job caught it and went on"}, nil)
}

// TestTrendFlatRise: a trend a rule after the test called flat, though its
// line rises with an interval above 0, prints no growth rate; a flat trend
// whose interval reaches 0, and a growing one, print theirs.
func TestTrendFlatRise(t *testing.T) {
	rising := analyze.Trend{Per: "hour", N: 89, Given: 104, Slope: 2.22 * (1 << 40), Lo: 0.58 * (1 << 40), Hi: 3.43 * (1 << 40), PValue: 0.0001}
	for _, tt := range []struct {
		name          string
		edit          func(*analyze.Trend)
		want, mustNot []string
	}{
		{"warm-up then flat", func(t *analyze.Trend) {
			t.State, t.Pattern, t.Why.Rule = analyze.StateFlat, analyze.PatternWarmUp, analyze.RuleStopped
		}, []string{"flat (warm-up then flat): a rise that stopped, so no growth rate"}, []string{"TiB", "/hour"}},
		{"levels off", func(t *analyze.Trend) {
			t.State, t.Pattern, t.Why.Rule = analyze.StateFlat, analyze.PatternPlateau, analyze.RuleLevelsOff
		}, []string{"flat (growth then plateau): a rise that levels off, so no growth rate"}, []string{"TiB"}},
		{"flat, interval reaches 0", func(t *analyze.Trend) {
			t.State, t.Pattern, t.Why.Rule, t.Lo, t.PValue = analyze.StateFlat, analyze.PatternNoisy, analyze.RuleBounded, 0, 0.04
		}, []string{"+2.22 TiB/hour (95% CI 0 to +3.43 TiB), p=0.04, flat (noisy, no trend)"}, nil},
		{"growing", func(t *analyze.Trend) {
			t.State, t.Pattern, t.Why.Rule = analyze.StateGrowing, analyze.PatternSteady, analyze.RuleGrows
		}, []string{"+2.22 TiB/hour (95% CI +0.58 to +3.43 TiB), p<0.001, growing"}, nil},
	} {
		tr := rising
		tt.edit(&tr)
		has(t, tt.name, Trend(&tr), tt.want, tt.mustNot)
		if FlatRise(&tr) {
			has(t, tt.name+" slope", SlopeText(&tr), []string{"none (flat: "}, []string{"TiB"})
		} else if got := SlopeText(&tr); !strings.Contains(got, "2.22 TiB/hour") {
			t.Errorf("%s: slope text %q lacks the rate", tt.name, got)
		}
	}
}
