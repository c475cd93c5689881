package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// The view model: what a report shows, built once from the Findings
// (buildView) and laid out by each writer (HTML, Markdown, XLSX,
// summary.json, stdout), as pprof's report.TextItems or x/perf's
// benchtab.Table. Every item is a typed struct whose values are Cells,
// held raw with their unit and as the text every writer prints, and
// whose sentences come from package words; so the writers cannot drift
// apart. The model files (model*.go) are the only ones that read the
// Findings; a writer reads the view, and reaches each value by its field.

// view is the format-neutral model of one run's report.
type view struct {
	// Run, Severity ("ok" ... "critical") and Headline head every report;
	// Flags are the raised flags; Reasons back the verdict and Suppressed
	// says which suspects suppressions took out of it ("" when none).
	Run, Severity, Headline string
	Flags                   []analyze.Flag
	Reasons                 []string
	Suppressed              string
	// Inputs summarises the inputs read ("24 snapshots, 1 GPU log ...");
	// Location is the zone assumed for zoneless log timestamps.
	Inputs, Location string
	// Capture says what the capture kit's manifests tell, a sentence each;
	// nil when the run was not captured with the kit. MissedOOM says
	// which OOM no snapshot was taken at ("" when none).
	Capture   []string
	MissedOOM string
	// Devices are the devices, in the Findings' order.
	Devices []deviceItem
	// Suspects are every leak suspect in one order: the verdict's top
	// suspects first, then the others device by device.
	Suspects []suspectItem
	// Processes are the processes whose used memory grows.
	Processes []processItem
	// OtherProcesses are the processes of no device; nil when none.
	OtherProcesses *processSet
	// NeverFreed are what each device's trace window allocated and never
	// freed, a line a device (summary.md), and its groups, a row each
	// (the workbook); nil when no window kept anything.
	NeverFreed     []string
	NeverFreedRows []neverFreedRow
	// Notes are the caveats under the verdict; NextSteps what to try next.
	Notes     []string
	NextSteps []words.Sentence
	// Held is the one line of roles: what held the live memory at the
	// first OOM, or at the peak snapshot ("" when no roles are known).
	Held string
	// OOMs are the explained out-of-memory errors; StatsOOMs the rises of
	// memory_stats num_ooms that the verdict counts as OOMs of their own.
	OOMs      []oomItem
	StatsOOMs []statsOOMItem
	// Ranks compares the ranks of a multi-rank run; nil otherwise.
	Ranks *rankItem
	// SnapshotFiles, GPULogs and Skipped are the inputs: the snapshot
	// files read, the GPU logs with their problems, and the files
	// skipped with the reason.
	SnapshotFiles []inputItem
	GPULogs       []logItem
	Skipped       []inputItem
	// Methods explain the page's terms and the thresholds applied.
	Methods []string
	// summary is summary.json less the time and version it is written
	// with.
	summary *Summary
}

// buildView builds the view model of f.
func buildView(f *analyze.Findings) *view {
	v := &view{
		Run: f.RunDir, Severity: severity(f.Verdict), Headline: words.Headline(f), Flags: f.Verdict.Flags(),
		Reasons: words.Reasons(f), Suppressed: words.Suppressed(f), Inputs: inputsText(f), Location: f.Location,
		Capture: words.Capture(f.Capture),
		Notes:   words.Notes(f), NextSteps: words.NextSteps(f), Methods: words.Methods(f.Thresholds),
		Held: words.Held(f),
	}
	for _, d := range f.Devices {
		v.Devices = append(v.Devices, buildDevice(f, d))
		if line := words.NeverFreed(d); line != "" {
			v.NeverFreed = append(v.NeverFreed, line)
			v.NeverFreedRows = append(v.NeverFreedRows, neverFreedRows(d)...)
		}
	}
	v.Suspects = suspectItems(f)
	if op := f.OtherProcesses; op != nil {
		v.OtherProcesses = buildProcessSet("processes-other", nil, op)
	}
	for _, r := range growingProcesses(f) {
		v.Processes = append(v.Processes, processItem{Label: words.Process(r.p), Rest: words.GrowingProcess(r.dev, r.p)})
	}
	for i := range f.OOMs {
		v.OOMs = append(v.OOMs, buildOOM(&f.OOMs[i]))
	}
	// The num_ooms rises the verdict counts as OOMs of their own (a
	// memory_stats OOM reason each): a rise on a device whose OOM a
	// snapshot or a training log already explains is that OOM, shown
	// with the device's readings, not listed again.
	for _, r := range f.Verdict.Reasons {
		if r.Kind != analyze.ReasonStatsOOM {
			continue
		}
		if d := device(f, r.Device); d != nil && d.MemoryStats != nil && r.Index >= 0 && r.Index < len(d.MemoryStats.OOMs) {
			v.StatsOOMs = append(v.StatsOOMs, statsOOMItem{Device: words.Device(d.DeviceKey), Text: words.StatsOOM(d.MemoryStats.OOMs[r.Index])})
		}
	}
	v.Ranks = buildRanks(f)
	if seen, _ := words.MissedOOM(f.MissedOOM); seen != nil {
		v.MissedOOM = seen.String()
	}
	v.SnapshotFiles, v.GPULogs, v.Skipped = inputItems(f)
	v.summary = summaryOf(f, v)
	return v
}

// inputsText summarises the inputs: "120 snapshots, 2 GPU logs
// (query-csv, dmon), 1 skipped".
func inputsText(f *analyze.Findings) string {
	s := units.CountOf(f.Inputs.Snapshots, "snapshot") + ", " + units.CountOf(len(f.Inputs.Logs), "GPU log")
	var formats []string
	for _, l := range f.Inputs.Logs {
		if !slices.Contains(formats, string(l.Format)) {
			formats = append(formats, string(l.Format))
		}
	}
	if len(formats) > 0 {
		s += " (" + strings.Join(formats, ", ") + ")"
	}
	lines := 0
	for _, l := range f.Inputs.Logs {
		lines += l.SkippedLines
	}
	if lines > 0 {
		s += ", " + units.CountOf(lines, "unreadable log line") + " skipped"
	}
	nothing := 0
	for _, sk := range f.Inputs.Skipped {
		if sk.NoContent {
			nothing++
		}
	}
	s += ", " + units.CountOf(len(f.Inputs.Skipped)-nothing, "file") + " skipped"
	if nothing > 0 {
		s += ", " + units.CountOf(nothing, "text log") + " with nothing to read"
	}
	return s
}

// figureColumns are the key figures' columns, a row per device.
var figureColumns = []column[deviceItem]{
	{Name: "Device", Of: func(d deviceItem) Cell { return textCell(d.Label) }},
	{Name: "Peak allocated", Num: true, Of: func(d deviceItem) Cell { return d.PeakAllocated }},
	{Name: "Peak reserved", Num: true, Of: func(d deviceItem) Cell { return d.PeakReserved }},
	{Name: "Peak used (nvidia-smi)", Num: true, Of: func(d deviceItem) Cell { return d.PeakUsed }},
	{Name: "Capacity", Num: true, Of: func(d deviceItem) Cell { return d.Capacity }},
	{Name: "Trend (95% CI)", Of: func(d deviceItem) Cell { return d.Trend }},
	{Name: "Time to capacity", Of: func(d deviceItem) Cell { return d.Projection }},
	{Name: "External fragmentation (last snapshot)", Of: func(d deviceItem) Cell { return d.Fragmentation }},
	{Name: "Verdict", Of: func(d deviceItem) Cell { return d.Verdict }},
}

// figures is the key figures as a table, a row per device.
func (v *view) figures() Table {
	return tableOf(v.Devices, figureColumns, func(d deviceItem) string { return d.Anchor })
}

// suspectItem is one leak suspect of a device, with everything every
// writer shows of it.
type suspectItem struct {
	// Device names its device; Key is the device's key.
	Device string
	Key    analyze.DeviceKey
	// Site, Function and Fingerprint identify it; Top is true for the
	// verdict's top suspects; Suppressed names the suppression that
	// matched ("" when none).
	Site, Function, Fingerprint string
	Top                         bool
	Suppressed                  string
	// Growth is its rate with its interval (the raw slope its Value), Lo
	// and Hi the interval's ends, Per the unit of x; PValue its p; Method
	// how the slope was fitted.
	Growth, Lo, Hi, PValue Cell
	Per                    units.Per
	Method                 string
	// First and Last are its live bytes at the first and last snapshot;
	// LastShare the last as a share of allocated memory; Blocks its live
	// blocks ("first to last", the value the last).
	First, Last, LastShare, Blocks Cell
	// Confidence and GrowthShare (its share of the device's allocated
	// growth); Evidence the observations behind it; Claim what its
	// section claims; Sentence it in one line with its full fingerprint,
	// Short with the fingerprint shortened (shortFingerprint).
	Confidence  string
	GrowthShare Cell
	Evidence    []string
	Claim       string
	Sentence    string
	Short       string
	// Stack is its representative stack, innermost first; User marks the
	// user frames.
	Stack []analyze.Frame
	User  []bool
	// Chart draws its live bytes and fitted growth.
	Chart chartSpec
	// index is its position in its device's Suspects; json its entry of
	// summary.json's leak_suspects.
	index int
	json  SummarySuspect
}

// suspectItems lists every suspect once: the verdict's top suspects in
// the verdict's order (dangling references skipped), then the other
// suspects device by device.
func suspectItems(f *analyze.Findings) []suspectItem {
	type key struct {
		d *analyze.Device
		i int
	}
	var out []suspectItem
	seen := map[key]bool{}
	add := func(d *analyze.Device, i int, top bool) {
		if seen[key{d, i}] {
			return
		}
		seen[key{d, i}] = true
		out = append(out, buildSuspect(d, i, top))
	}
	for _, ref := range f.Verdict.Suspects {
		for _, d := range f.Devices {
			if d.DeviceKey == ref.DeviceKey && ref.Index >= 0 && ref.Index < len(d.Suspects) {
				add(d, ref.Index, true)
			}
		}
	}
	for _, d := range f.Devices {
		for i := range d.Suspects {
			add(d, i, false)
		}
	}
	return out
}

// buildSuspect builds the item of suspect i of device d.
func buildSuspect(d *analyze.Device, i int, top bool) suspectItem {
	s := &d.Suspects[i]
	t := &s.Trend
	growth := rateCell(t.Slope, t.Per)
	growth.Text = units.RateCI(t.Slope, t.Lo, t.Hi, t.Per)
	it := suspectItem{
		Device: words.Device(d.DeviceKey), Key: d.DeviceKey,
		Site: s.Site, Function: s.Function, Fingerprint: s.Fingerprint, Top: top, Suppressed: s.Suppressed,
		Growth: growth, Lo: rateCell(t.Lo, t.Per), Hi: rateCell(t.Hi, t.Per), PValue: pValueCell(t.PValue), Per: t.Per, Method: words.Method(t),
		First: noneCell(UnitBytes), Last: noneCell(UnitBytes), LastShare: noneCell(UnitShare), Blocks: noneCell(UnitCount),
		Confidence: string(s.Confidence), GrowthShare: shareCell(s.Share), Evidence: words.Evidence(d, i),
		Claim: words.Claim(d, s), Sentence: words.Suspect(d, s, s.Fingerprint), Short: words.Suspect(d, s, shortFingerprint(s.Fingerprint)), Stack: s.Stack, User: s.User,
		Chart: suspectChart(d, s), index: i,
	}
	if k := len(s.Bytes); k > 0 {
		it.First, it.Last = byteCell(s.Bytes[0]), byteCell(s.Bytes[k-1])
	}
	if finite(s.LastShare) {
		it.LastShare = shareCell(s.LastShare)
	}
	if k := len(s.Blocks); k > 0 {
		it.Blocks = Cell{Text: fmt.Sprintf("%s to %s", units.Count(int64(s.Blocks[0])), units.Count(int64(s.Blocks[k-1]))), Value: float64(s.Blocks[k-1]), Unit: UnitCount}
	}
	it.json = summarySuspect(d, i)
	return it
}

// top returns the verdict's top suspects.
func (v *view) top() []suspectItem {
	n := 0
	for n < len(v.Suspects) && v.Suspects[n].Top {
		n++
	}
	return v.Suspects[:n]
}

// topColumns are the columns of the verdict's top suspects; the row's
// number is the item's position.
var topColumns = []column[numbered[suspectItem]]{
	{Name: "#", Num: true, Of: func(n numbered[suspectItem]) Cell { return countCell(n.N, false) }},
	{Name: "Site", Code: true, Of: func(n numbered[suspectItem]) Cell { return textCell(n.It.Site) }},
	{Name: "Function", Code: true, Of: func(n numbered[suspectItem]) Cell { return textCell(n.It.Function) }},
	{Name: "Device", Of: func(n numbered[suspectItem]) Cell { return textCell(n.It.Device) }},
	{Name: "Growth", Of: func(n numbered[suspectItem]) Cell { return textCell(n.It.Growth.Text + ", " + n.It.PValue.Text) }},
	{Name: "Live at end", Num: true, Of: func(n numbered[suspectItem]) Cell { return n.It.Last }},
	{Name: "Fingerprint", Code: true, Of: func(n numbered[suspectItem]) Cell { return textCell(n.It.Fingerprint) }},
}

// numbered is an item with its number in a list, from 1.
type numbered[R any] struct {
	N  int
	It R
}

// numberedOf numbers items from 1, at most limit of them (all when
// limit < 0).
func numberedOf[R any](items []R, limit int) []numbered[R] {
	if limit >= 0 && len(items) > limit {
		items = items[:limit]
	}
	out := make([]numbered[R], len(items))
	for i, it := range items {
		out[i] = numbered[R]{i + 1, it}
	}
	return out
}

// topTable is the verdict's top suspects as a table, at most limit rows.
func (v *view) topTable(limit int) Table {
	return tableOf(numberedOf(v.top(), limit), topColumns, nil)
}

// processItem is a process whose used memory grows, in words every
// writer prints as "<Label><Rest>": "python (pid 4242)" and " on cuda:0:
// +720 MiB/hour (95% CI ...), p<0.001; peak 2.30 GiB, last 2.30 GiB (180
// readings, nvidia-smi)".
type processItem struct {
	Label, Rest string
}

// Text is the whole sentence.
func (p processItem) Text() string { return p.Label + p.Rest }

// oomItem is one explained out-of-memory error.
type oomItem struct {
	// Path is the file that recorded it, Device its device; Where both
	// ("rank1/snapshot.pickle on rank 1 · cuda:0"); Time when (RFC 3339,
	// "" when unknown); Cause its cause.
	Path, Device, Where, Time, Cause string
	// Explanation says why the request failed; State, for a state rebuilt
	// from the trace, says so; Limit is the device's memory.
	Explanation, State, Limit string
	// Requested ... LargestFree are the allocator's figures at the OOM
	// ("unknown" where the input did not give them), Missing the device
	// memory the request lacked (summary.json missing_bytes); At is Time
	// as a cell (empty when unknown).
	Requested, DeviceFree, Reserved, Allocated, CachedFree, LargestFree Cell
	Missing, At                                                         Cell
	// Handled is true when the job caught the OOM and went on.
	Handled bool
	// Site and Function are the failing allocation's; Stack its stack,
	// innermost first, User its user frames.
	Site, Function string
	Stack          []analyze.Frame
	User           []bool
	// TopLive are the largest live groups at the OOM.
	TopLive []liveRow
	// Settings are the allocator settings recorded; Recommendations what
	// to try.
	Settings        string
	Recommendations []words.Sentence
}

// buildOOM builds an OOM's item.
func buildOOM(o *analyze.OOM) oomItem {
	it := oomItem{
		Path: o.Path, Device: words.Device(o.Key()), Time: units.Timestamp(o.Time), Cause: string(o.Cause),
		Explanation: words.Explanation(o), Site: o.Site, Function: o.Function, Stack: o.Stack, User: o.User, Settings: words.Settings(o),
		Requested: oomByteCell(o.Requested), DeviceFree: oomByteCell(o.DeviceFree), Reserved: oomByteCell(o.Reserved),
		Allocated: oomByteCell(o.Allocated), CachedFree: oomByteCell(o.CachedFree), LargestFree: oomByteCell(o.LargestFree),
		Missing: oomByteCell(o.Missing), At: timeCell(o.Time, tableTime), Handled: o.Handled,
	}
	it.Where = it.Path + " on " + it.Device
	if o.Reconstructed {
		it.State = fmt.Sprintf("State at the OOM rebuilt from the trace (the snapshot was taken later; %s were freed in between).", units.Bytes(o.FreedAfter))
	}
	switch {
	case o.Capacity > 0:
		it.Limit = units.Bytes(o.Capacity)
	case o.EstimatedCapacity > 0:
		it.Limit = "at least " + units.Bytes(o.EstimatedCapacity) + " (reserved + free at the OOM)"
	}
	for _, g := range o.TopLive {
		it.TopLive = append(it.TopLive, liveRowOf(g))
	}
	for _, r := range o.Recommendations {
		it.Recommendations = append(it.Recommendations, words.Recommendation(o, r))
	}
	return it
}

// statsOOMItem is a rise of memory_stats num_ooms on a device.
type statsOOMItem struct {
	Device, Text string
}

// liveRow is a signature group's live memory at one moment.
type liveRow struct {
	Site, Function, Fingerprint, Bytes, Blocks string
}

func liveRowOf(g analyze.LiveGroup) liveRow {
	return liveRow{Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint, Bytes: units.Bytes(g.Bytes), Blocks: units.Count(int64(g.Blocks))}
}

// rankItem compares the ranks of a run.
type rankItem struct {
	Rows    []rankRow
	Outlier string
	Reason  string
	Skew    string
}

// rankRow is one rank's line of the comparison.
type rankRow struct {
	Rank, Device, PeakAllocated, PeakReserved, Slope, Growing, Suspects, TopSuspect string
	Outlier                                                                         bool
}

// buildRanks builds the comparison of ranks, nil without one.
func buildRanks(f *analyze.Findings) *rankItem {
	r := f.Ranks
	if r == nil {
		return nil
	}
	rv := &rankItem{Reason: words.Ranks(f)}
	if r.Skew > 0 {
		rv.Skew = units.Bytes(r.Skew)
	}
	if r.Outlier != input.NoRank {
		rv.Outlier = fmt.Sprintf("rank %d", r.Outlier)
	}
	for _, rs := range r.Ranks {
		row := rankRow{
			Rank: fmt.Sprint(rs.Rank), Device: units.TypedDevice(rs.Type.String(), input.NoRank, rs.Device), PeakAllocated: knownBytesCell(rs.PeakAllocated).Text, PeakReserved: knownBytesCell(rs.PeakReserved).Text,
			Slope: units.Signed(rs.Slope), Growing: "no", Suspects: fmt.Sprint(rs.Suspects), TopSuspect: rs.TopSuspect,
			Outlier: rs.Rank == r.Outlier && r.Outlier != input.NoRank,
		}
		if rs.Growing {
			row.Growing = "yes"
		}
		rv.Rows = append(rv.Rows, row)
	}
	return rv
}

// inputItem is one input file: a snapshot file read, or a file skipped
// and why.
type inputItem struct {
	Path, Reason string
	// noContent marks a text log that held nothing to read
	// (ingest.Skipped.NoContent): no failure.
	noContent bool
}

// logItem is one GPU log read, with its problems in words.
type logItem struct {
	Path, Format              string
	Samples, GPUs, Skipped    Cell
	Lines, Kinds, Notes       []string
	skipCounts                []SummarySkipCount
	samples, gpus, skippedRaw int
	// kinds splits samples by kind of reading when there are several
	// (summary.json's sample_kinds), nil otherwise.
	kinds map[string]int
}

// problems lists the log's problems: the lines, then the kinds, then
// the reader's notes.
func (l logItem) problems() []string {
	return append(append(append([]string{}, l.Lines...), l.Kinds...), l.Notes...)
}

// inputItems are the run's inputs: the snapshot files (each once, in the
// devices' order), the GPU logs and the files skipped.
func inputItems(f *analyze.Findings) (snapshots []inputItem, logs []logItem, skipped []inputItem) {
	seen := map[string]bool{}
	for _, d := range f.Devices {
		for _, p := range d.Points {
			if !seen[p.Path] {
				seen[p.Path] = true
				snapshots = append(snapshots, inputItem{Path: p.Path})
			}
		}
	}
	for _, l := range f.Inputs.Logs {
		li := logItem{Path: l.Path, Format: string(l.Format), Samples: countCell(l.Samples, true), GPUs: countCell(l.GPUs, false),
			Skipped: countCell(l.SkippedLines, true), Notes: l.Notes, samples: l.Samples, gpus: l.GPUs, skippedRaw: l.SkippedLines}
		if len(l.Kinds) > 0 {
			// Readings of several kinds: say what the count is made of
			// (12 GPU readings and 12 process rows are not 24 of a GPU).
			var parts []string
			li.kinds = map[string]int{}
			for _, k := range l.Kinds {
				parts = append(parts, units.Count(int64(k.Readings))+" "+words.ReadingKind(k.Kind))
				li.kinds[k.Kind] = k.Readings
			}
			li.Samples.Text += " (" + strings.Join(parts, ", ") + ")"
		}
		if z := words.LogZone(l); z != "" {
			li.Notes = append(slices.Clip(li.Notes), z)
		}
		for _, pr := range l.Problems {
			li.Lines = append(li.Lines, fmt.Sprintf("line %d: %s", pr.Line, pr.Reason))
		}
		for _, c := range l.SkipCounts {
			li.Kinds = append(li.Kinds, c.Kind+": "+units.CountOf(c.Lines, "line"))
			li.skipCounts = append(li.skipCounts, SummarySkipCount{Kind: c.Kind, Lines: c.Lines})
		}
		logs = append(logs, li)
	}
	for _, sk := range f.Inputs.Skipped {
		skipped = append(skipped, inputItem{Path: sk.Path, Reason: sk.Reason, noContent: sk.NoContent})
	}
	return snapshots, logs, skipped
}

// deviceAnchor is a stable HTML id fragment for a series: "r0-d1", "rx-d0",
// "rx-d0-mig-gi-7" for a MIG device.
func deviceAnchor(k analyze.DeviceKey) string {
	a := fmt.Sprintf("r%d-d%d", k.Rank, k.Device)
	if k.Rank == input.NoRank {
		a = fmt.Sprintf("rx-d%d", k.Device)
	}
	if k.MIG != "" {
		a += "-mig-" + strings.ToLower(strings.ReplaceAll(k.MIG, " ", "-"))
	}
	if k.Host {
		// The rank's pinned host memory is presented as device 0 of
		// its own allocator: its anchor must not be cuda:0's.
		a += "-host"
	}
	return a
}

// severity returns the verdict's severity, "ok" when the analysis left
// it empty.
func severity(v analyze.Verdict) string {
	return string(cmp.Or(v.Severity, analyze.SeverityOK))
}

// procRef is a process and the device it was found on (nil for
// Findings.OtherProcesses).
type procRef struct {
	dev *analyze.Device
	p   *analyze.ProcessSeries
}

// growingProcesses lists the processes whose used memory grows, device by
// device (the largest peak first), then the other processes.
func growingProcesses(f *analyze.Findings) []procRef {
	var out []procRef
	add := func(d *analyze.Device, set *analyze.ProcessSet) {
		if set == nil {
			return
		}
		for i := range set.Series {
			if t := set.Series[i].Trend; t != nil && t.State == analyze.StateGrowing {
				out = append(out, procRef{d, &set.Series[i]})
			}
		}
	}
	for _, d := range f.Devices {
		add(d, d.Processes)
	}
	add(nil, f.OtherProcesses)
	return out
}
