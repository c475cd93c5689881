package eval

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteText writes the evaluation of the corpus in dir as text: the
// per-scenario table, the confusion matrix of each flag, the OOM cause
// matrix, the per-knob table, the headline measures against their
// targets, and the misclassified cases.
func WriteText(w io.Writer, dir string, ev *Evaluation) error {
	ew := &errWriter{w: w}
	o := ev.Overall
	fmt.Fprintf(ew, "gpureport eval: %d cases from %s (generator seed %d)\n\n", o.Cases, dir, ev.Seed)

	fmt.Fprintln(ew, "per scenario:")
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tcases\tleak P\tleak R\ttop-1 site\toutside ok\tfrag ok\toom ok\tcause ok\tbad CI\tall ok\t")
	row := func(s Score) {
		l := s.Flags[0]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d/%d\t\n", s.Name, s.Cases,
			rate(l.Precision, l.TP+l.FP), rate(l.Recall, l.TP+l.FN), top1(s),
			flagOK(s.Flags[1]), flagOK(s.Flags[2]), flagOK(s.Flags[3]), causeOK(s), s.BadIntervals, s.Correct, s.Cases)
	}
	for _, s := range ev.ByScenario {
		row(s)
	}
	row(o)
	tw.Flush()

	fmt.Fprintln(ew, "\nconfusion per flag (rows: label, columns: analysis):")
	tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "flag\tlabel\tgot yes\tgot no\tprecision\trecall\t")
	for i, name := range FlagNames() {
		c := o.Flags[i]
		fmt.Fprintf(tw, "%s\tyes\t%d\t%d\t%.3f\t%.3f\t\n", name, c.TP, c.FN, c.Precision, c.Recall)
		fmt.Fprintf(tw, "\tno\t%d\t%d\t\t\t\n", c.FP, c.TN)
	}
	tw.Flush()

	fmt.Fprintln(ew, "\nOOM cause (rows: label, columns: analysis; none = no OOM or no cause):")
	tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	causes := CauseNames()
	fmt.Fprintf(tw, "label\t%s\t\n", strings.Join(causes[:], "\t"))
	for i, name := range causes {
		fmt.Fprintf(tw, "%s", name)
		for j := range causes {
			fmt.Fprintf(tw, "\t%d", o.Cause[i][j])
		}
		fmt.Fprintln(tw, "\t")
	}
	tw.Flush()

	if len(ev.ByKnob) > 0 {
		fmt.Fprintln(ew, "\nper knob value:")
		tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "knob\tcases\tleak ok\toutside ok\tfrag ok\toom ok\tcause ok\tbad CI\tdevices ok\tjoin ok\tall ok\t")
		for _, s := range ev.ByKnob {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%d/%d\t\n", s.Name, s.Cases, flagOK(s.Flags[0]), flagOK(s.Flags[1]),
				flagOK(s.Flags[2]), flagOK(s.Flags[3]), causeOK(s), s.BadIntervals, ratio(s.DeviceHits, s.DeviceCases),
				ratio(s.JoinHits, s.JoinCases), s.Correct, s.Cases)
		}
		tw.Flush()
	}

	if o.RankCases > 0 {
		fmt.Fprintf(ew, "\nleak rank (multi-rank leak cases): %d/%d top suspects on the leaking rank\n", o.RankHits, o.RankCases)
	}
	if len(ev.Misses) > 0 {
		fmt.Fprintf(ew, "\nmisclassified (%d):\n", len(ev.Misses))
		for _, m := range ev.Misses {
			fmt.Fprintf(ew, "  %s [%s]: %s\n      verdict: %s\n", m.Case, m.Scenario, strings.Join(m.Wrong, "; "), m.Headline)
		}
	}
	if len(ev.Missing) > 0 {
		fmt.Fprintf(ew, "\nno result for %d case(s): %s\n", len(ev.Missing), strings.Join(ev.Missing, ", "))
	}

	fmt.Fprintln(ew, "\nmeasures (target):")
	l := o.Flags[0]
	fragRight, all := o.Flags[2].Right()
	tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	measure := func(name, got, target string, ok bool) {
		mark := "ok"
		if !ok {
			mark = "MISSED"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", name, got, target, mark)
	}
	measure("leak precision", fmt.Sprintf("%.3f (%d false leaks)", l.Precision, l.FP), fmt.Sprintf(">= %.2f", TargetPrecision), l.Precision >= TargetPrecision)
	measure("leak recall", fmt.Sprintf("%.3f (%d missed)", l.Recall, l.FN), fmt.Sprintf(">= %.2f", TargetRecall), l.Recall >= TargetRecall)
	measure("top-1 site", top1Rate(o), fmt.Sprintf(">= %.2f", TargetTop1), o.LeakCases == 0 || o.Top1 >= TargetTop1)
	measure("fragmentation flag right", fmt.Sprintf("%d/%d", fragRight, all), fmt.Sprintf(">= %.0f%%", 100*TargetFragmentation),
		float64(fragRight) >= TargetFragmentation*float64(all))
	measure("OOM cause right", fmt.Sprintf("%d/%d", o.CauseHits, o.OOMCases), fmt.Sprintf(">= %.0f%%", 100*TargetCause),
		float64(o.CauseHits) >= TargetCause*float64(o.OOMCases))
	measure("suspects with a bad interval", fmt.Sprintf("%d of %d", o.BadIntervals, o.Suspects), fmt.Sprintf("<= %d", TargetBadIntervals),
		o.BadIntervals <= TargetBadIntervals)
	tw.Flush()
	fmt.Fprintf(ew, "also: devices of the run right %s, GPU join right %s, per-hour rates from under a minute of data %d (no targets yet)\n",
		ratio(o.DeviceHits, o.DeviceCases), ratio(o.JoinHits, o.JoinCases), o.ShortHourRates)
	status := "met"
	if !ev.TargetsMet {
		status = "NOT met"
	}
	fmt.Fprintf(ew, "targets: %s\n", status)
	return ew.err
}

// errWriter keeps the first write error so the printing code stays flat.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// rate prints a ratio, or "-" when its denominator is 0.
func rate(v float64, denom int) string {
	if denom == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

func top1(s Score) string {
	if s.LeakCases == 0 || math.IsNaN(s.Top1) {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.SiteHits, s.LeakCases)
}

func top1Rate(s Score) string {
	if s.LeakCases == 0 || math.IsNaN(s.Top1) {
		return "- (no leak cases)"
	}
	return fmt.Sprintf("%.3f (%d/%d)", s.Top1, s.SiteHits, s.LeakCases)
}

func flagOK(c Confusion) string {
	r, n := c.Right()
	return fmt.Sprintf("%d/%d", r, n)
}

// ratio prints hits/cases, or "-" without cases.
func ratio(hits, cases int) string {
	if cases == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", hits, cases)
}

func causeOK(s Score) string {
	if s.OOMCases == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.CauseHits, s.OOMCases)
}

// scoreJSON is a Score whose Top1 is null (not NaN, which JSON cannot
// hold) without leak cases.
type scoreJSON struct {
	Score
	Top1 *float64
}

func toScoreJSON(s Score) scoreJSON {
	out := scoreJSON{Score: s}
	if !math.IsNaN(s.Top1) {
		v := s.Top1
		out.Top1 = &v
	}
	return out
}

// JSON returns the evaluation in a form encoding/json can write (Top1 is
// null where it is undefined).
func (ev *Evaluation) JSON() any {
	conv := func(ss []Score) []scoreJSON {
		out := make([]scoreJSON, len(ss))
		for i, s := range ss {
			out[i] = toScoreJSON(s)
		}
		return out
	}
	return struct {
		Seed       uint64
		Overall    scoreJSON
		ByScenario []scoreJSON
		ByKnob     []scoreJSON
		Misses     []Miss
		Missing    []string
		TargetsMet bool
	}{ev.Seed, toScoreJSON(ev.Overall), conv(ev.ByScenario), conv(ev.ByKnob), ev.Misses, ev.Missing, ev.TargetsMet}
}
