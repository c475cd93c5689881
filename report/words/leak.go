package words

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// Evidence lists the observations behind suspect i of device d, one line
// each, in the order the analysis found them.
func Evidence(d *analyze.Device, i int) []string {
	sp := &d.Suspects[i]
	tr := &sp.Trend
	out := make([]string, 0, len(sp.Evidence))
	for _, e := range sp.Evidence {
		var s string
		switch e.Kind {
		case analyze.EvidenceGrowth:
			s = fmt.Sprintf("live bytes grow %s, Mann-Kendall %s over %d snapshots", units.RateCI(tr.Slope, tr.Lo, tr.Hi, tr.Per), units.PValue(tr.PValue), tr.N)
			if lt := keptOnly(sp); lt != nil {
				s = fmt.Sprintf("the bytes of the blocks it keeps grow %s, Mann-Kendall %s over %d snapshots; its live bytes do not show it (%s, %s): "+
					"transient tensors of the same stack come and go around what it keeps", units.RateCI(tr.Slope, tr.Lo, tr.Hi, tr.Per), units.PValue(tr.PValue), tr.N,
					units.RateCI(lt.Slope, lt.Lo, lt.Hi, lt.Per), lt.Pattern)
			}
		case analyze.EvidenceShape:
			s = fmt.Sprintf("%s: %s over the fitted range; %d → %d blocks", tr.Pattern, units.Signed(tr.Growth), e.Bytes, e.Of)
		case analyze.EvidenceWarmUp:
			s = fmt.Sprintf("fitted from snapshot %d, after a warm-up step", tr.FitFrom)
		case analyze.EvidenceShare:
			s = units.Percent(sp.Share) + " of the device's allocated growth"
		case analyze.EvidenceNoUserFrame:
			s = fmt.Sprintf("no user frame in the stack: the site is a %s frame", e.SiteKind)
		case analyze.EvidenceCoverage:
			s = fmt.Sprintf("only %s of live bytes carry stacks in a typical snapshot: other growth may be unattributed", units.Percent(e.Share))
		case analyze.EvidenceOOM:
			s = fmt.Sprintf("the OOM of %s (%s requested, %s free on the device) came after this site's live memory grew by %s, never freed",
				e.Path, units.Bytes(e.Bytes), units.Bytes(e.Of), units.Bytes(e.Grew))
		case analyze.EvidencePaths:
			if ls := d.SiteOf(i); ls != nil {
				t := ls.Trend
				s = fmt.Sprintf("one of %d call paths to %s (%s), which together grow %s, %s",
					ls.Paths(), ls.Site, paths(d, ls), units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue))
			}
		case analyze.EvidencePinsSegments:
			s = "its tensors also pin cached segments, keeping them reserved (see fragmentation)"
		case analyze.EvidencePinning:
			s = fmt.Sprintf("%s of its %s live bytes sit in large segments that are at least %s free: it keeps them reserved",
				units.Bytes(e.Bytes), units.Bytes(e.Of), units.Percent(1-analyze.PinnedLiveShare))
		case analyze.EvidenceSurvival:
			s = Survival(sp.Survival)
		case analyze.EvidenceGraphGrowth:
			what := "its blocks all sit in a private pool (a CUDA graph's, or a MemPool's)"
			if e.Compile {
				what = "torch.compile / CUDA-graph frames are on its stack"
			}
			s = fmt.Sprintf("%s, and its blocks still grow in the last third of the run (%d → %d): graphs re-recorded for new input shapes without end, not a warm-up that stops once every shape was seen", what, e.Bytes, e.Of)
		default:
			// A kind without a sentence of its own yet says its name.
			s = string(e.Kind)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Survival says what following a suspect's blocks across the snapshots
// showed, "" when they were not followed.
func Survival(sv *analyze.SurvivalEvidence) string {
	if sv == nil || sv.Snapshots == 0 {
		return ""
	}
	switch sv.Form {
	case analyze.SurvivalKept:
		freed := "none of its blocks was freed"
		if sv.Deaths > 0 {
			freed = fmt.Sprintf("%d of them older than any of the %d blocks it freed, which lived at most %s", sv.Old, sv.Deaths, units.CountOf(sv.Turnover, "snapshot"))
		}
		k := sv.Kept
		return fmt.Sprintf("survival: the bytes of the blocks it keeps to the last snapshot grow %s; %s live there in %s, %s",
			units.RateCI(k.Slope, k.Lo, k.Hi, k.Per), units.Bytes(sv.KeptBytes), units.CountOf(sv.Blocks, "block"), freed)
	case analyze.SurvivalRecreated:
		l := sv.Largest
		what := "one tensor re-created bigger each time, such as torch.cat onto a history tensor"
		if sv.Blocks > 1 {
			// K histories of one line (analyze's allRecreated), or one
			// beside others of the same code.
			what = fmt.Sprintf("tensors re-created bigger each time (%d live at the last snapshot), such as torch.cat onto history tensors", sv.Blocks)
		}
		return fmt.Sprintf("survival: its largest block grows %s and is never smaller at the next snapshot, from %s to %s: %s",
			units.RateCI(l.Slope, l.Lo, l.Hi, l.Per), units.Bytes(sv.LargestFirst), units.Bytes(sv.LargestLast), what)
	case analyze.SurvivalTurnedOver:
		return fmt.Sprintf("survival: its blocks turn over, the freed ones after at most %s, and the bytes of those it keeps do not grow: a bounded container of recent tensors",
			units.CountOf(sv.Turnover, "snapshot"))
	}
	return fmt.Sprintf("survival: its freed blocks lived up to %s, too long for %s to tell kept blocks from replaced ones",
		units.CountOf(sv.Turnover, "snapshot"), units.CountOf(sv.Snapshots, "snapshot"))
}

// paths names a leak site's call paths: "suspects 16c2108f7b58,
// 9cd14a7c2865; 9 more only accumulate".
func paths(d *analyze.Device, ls *analyze.LeakSite) string {
	fps := make([]string, len(ls.Suspects))
	for k, i := range ls.Suspects {
		fps[k] = d.Suspects[i].Fingerprint
	}
	text := "suspect " + fps[0]
	if len(fps) > 1 {
		text = "suspects " + strings.Join(fps, ", ")
	}
	if ls.Accumulating > 0 {
		text += fmt.Sprintf("; %d more only accumulate", ls.Accumulating)
	}
	return text
}

// Suspect is a suspect in one line of plain text: "train.py:57
// train_step on rank 1 cuda:0, +492 KiB/step (95% CI ...), fingerprint
// 7f3a9c01d2e4b5a6"; fp is the fingerprint as the writer shows it.
func Suspect(d *analyze.Device, sp *analyze.Suspect, fp string) string {
	t := sp.Trend
	return fmt.Sprintf("%s %s on %s, %s, fingerprint %s", sp.Site, sp.Function, Device(d.DeviceKey), units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), fp)
}

// Claim is what a suspect's section claims, in sentences: "The live
// memory allocated at train.py:57 in train_step on cuda:0 grows by +492
// KiB/step (95% CI +467 to +516 KiB; p<0.001, Theil-Sen fit over 12
// snapshots). It holds 1.50 GiB at the last snapshot, 7.5% of allocated
// memory. It accounts for 98.0% of the device's allocated growth."
func Claim(d *analyze.Device, sp *analyze.Suspect) string {
	t := sp.Trend
	site := sp.Site
	if sp.Function != "" {
		site += " in " + sp.Function
	}
	// One pair of parentheses.
	rate := units.RateCI(t.Slope, t.Lo, t.Hi, t.Per)
	detail := fmt.Sprintf("%s, %s fit over %s", units.PValue(t.PValue), cmp.Or(Method(&t), "trend"), units.CountOf(t.N, "snapshot"))
	if strings.HasSuffix(rate, ")") {
		rate = strings.TrimSuffix(rate, ")") + "; " + detail + ")"
	} else {
		rate += " (" + detail + ")"
	}
	s := fmt.Sprintf("The live memory allocated at %s on %s grows by %s.", site, Device(d.DeviceKey), rate)
	if keptOnly(sp) != nil {
		s = fmt.Sprintf("The memory kept at %s on %s (its blocks that outlive the snapshots around them) grows by %s, under transient tensors of the same stack.", site, Device(d.DeviceKey), rate)
	}
	if n := len(sp.Bytes); n > 0 {
		s += " It holds " + units.Bytes(sp.Bytes[n-1]) + " at the last snapshot"
		if finite(sp.LastShare) {
			s += ", " + units.Percent(sp.LastShare) + " of allocated memory"
		}
		s += "."
	}
	if finite(sp.Share) && sp.Share > 0 {
		s += fmt.Sprintf(" It accounts for %s of the device's allocated growth.", units.Percent(sp.Share))
	}
	if r := SuspectRole(sp); r != "" {
		s += " " + r
	}
	return s
}

// keptOnly returns the trend of suspect sp's live bytes when they did not
// grow and the growth of what it keeps made it a suspect (its Trend is
// then that of the kept bytes), nil otherwise.
func keptOnly(sp *analyze.Suspect) *analyze.Trend {
	if sp.Survival == nil {
		return nil
	}
	return sp.Survival.Live
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Suppressed says how many suspects suppressions took out of the verdict
// and by which rules: "2 leak suspects suppressed (not counted in the
// verdict): 1 by known: dataset cache, 1 by built-in: optimizer state";
// "" when none were.
func Suppressed(f *analyze.Findings) string {
	total := 0
	parts := make([]string, len(f.Verdict.Suppressed))
	for i, r := range f.Verdict.Suppressed {
		total += r.Suspects
		parts[i] = fmt.Sprintf("%d by %s", r.Suspects, r.Rule)
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("%s suppressed (not counted in the verdict): %s", units.CountOf(total, "leak suspect"), strings.Join(parts, ", "))
}
