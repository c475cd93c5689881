package units

import (
	"fmt"
	"math"
	"strconv"
)

// Per is the unit of x a growth rate is given per, and the unit of a
// device's x axis: bytes per step, per hour, per reading or per snapshot.
// Its value is its one spelling, in summary.json and in sentences.
type Per string

// The units of x.
const (
	// PerStep: a training step, from the file names or the log lines.
	PerStep Per = "step"
	// PerHour: an hour of wall-clock time since the first point.
	PerHour Per = "hour"
	// PerReading: a reading's position in its log (0, 1, 2, ...), for
	// readings with neither a step nor a time.
	PerReading Per = "reading"
	// PerSnapshot: a snapshot's position in its series (0, 1, 2, ...),
	// for snapshots with no step and no usable time.
	PerSnapshot Per = "snapshot"
)

// Plural is the unit's noun for a count of more than one: "steps",
// "hours".
func (p Per) Plural() string { return string(p) + "s" }

// orStep is p, or PerStep when p is unset.
func (p Per) orStep() Per {
	if p == "" {
		return PerStep
	}
	return p
}

// Rate formats a growth rate in bytes per unit of x: "+12.3 MiB/step",
// "-1.00 GiB/hour". An unset unit is a step.
func Rate(bytesPer float64, per Per) string {
	return Signed(bytesPer) + "/" + string(per.orStep())
}

// RateCI formats a growth rate in bytes per unit of x with its 95%
// confidence interval, as benchstat prints a figure with its
// uncertainty: "+12.3 MiB/step (95% CI +11.1 to +13.5 MiB)". The interval
// bounds use the unit of the largest of the three figures; a bound of
// exactly zero prints "0", as Signed prints a zero rate, not "0.00" or
// "0.0". Missing bounds (NaN) print the rate alone.
func RateCI(slope, lo, hi float64, per Per) string {
	if math.IsNaN(slope) || math.IsInf(slope, 0) {
		return "n/a"
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return Rate(slope, per)
	}
	unit, size := BinaryUnit(max(math.Abs(slope), math.Abs(lo), math.Abs(hi)))
	bound := func(v float64) string {
		if v == 0 {
			return "0"
		}
		s := sig3(v / size)
		if unit == "B" {
			s = strconv.FormatFloat(v, 'f', 1, 64)
		}
		if v > 0 {
			s = "+" + s
		}
		return s
	}
	return fmt.Sprintf("%s (95%% CI %s to %s %s)", Rate(slope, per), bound(lo), bound(hi), unit)
}

// PValue formats a p-value, never as "0.0000": "p<0.001", "p=0.008",
// "p=0.21"; "p=n/a" when unknown.
func PValue(p float64) string {
	switch {
	case math.IsNaN(p) || p < 0:
		return "p=n/a"
	case p < 0.001:
		return "p<0.001"
	case p < 0.01:
		return "p=" + strconv.FormatFloat(p, 'f', 3, 64)
	default:
		return "p=" + strconv.FormatFloat(p, 'f', 2, 64)
	}
}

// Percent formats a share (0..1) as a percentage: 0.425 is "42.5%", 1 is
// "100%".
func Percent(share float64) string {
	if math.IsNaN(share) || math.IsInf(share, 0) {
		return "n/a"
	}
	v := share * 100
	if math.Abs(v) >= 99.95 || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// Number formats a float with up to 4 significant digits: 0.4213 is
// "0.4213", 12345 is "1.234e+04"; "n/a" for NaN.
func Number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
