package words

import (
	"fmt"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/internal/units"
)

// Ranks says how the ranks of a multi-rank run compare: none grows, the
// growth is common to them, or one rank is the outlier (with the suspect
// that grows on it alone).
func Ranks(f *analyze.Findings) string {
	rc := f.Ranks
	if rc == nil {
		return ""
	}
	switch {
	case rc.Growing == 0:
		return "no rank grows; peak allocated differs by " + units.Bytes(rc.Skew) + " across ranks"
	case rc.Outlier == input.NoRank:
		return fmt.Sprintf("%d of %d ranks grow: the growth is common to the ranks, no single outlier", rc.Growing, rc.Of)
	}
	if ref := rc.OutlierRef; ref != nil {
		if sp := f.Suspect(*ref); sp != nil {
			return fmt.Sprintf("rank %d grows and the others do not: its suspect %s (%s, fingerprint %s) grows %s and is not a suspect on any other rank",
				rc.Outlier, sp.Site, sp.Function, sp.Fingerprint, units.Rate(sp.Trend.Slope, sp.Trend.Per))
		}
	}
	others := make([]string, len(rc.Others))
	for i, r := range rc.Others {
		others[i] = strconv.Itoa(r)
	}
	return fmt.Sprintf("rank %d grows (%s) while ranks %s do not", rc.Outlier, units.Rate(rc.OutlierSlope, rc.OutlierPer), strings.Join(others, ", "))
}

// heavyRank says how far a rank's peak allocated memory stands above the
// other ranks' and where the difference lies: in which stacks, and in
// which roles of live memory.
func heavyRank(f *analyze.Findings, k analyze.DeviceKey) string {
	if f.Ranks == nil {
		return ""
	}
	for _, ex := range f.Ranks.Heavy {
		if ex.DeviceKey != k {
			continue
		}
		s := fmt.Sprintf("%s peaks at %s allocated, %s above the median of the other ranks' peaks (robust z %.1f > %g)",
			Device(k), units.Bytes(ex.Peak), units.Bytes(ex.Excess), ex.Z, analyze.HeavyRankZ)
		if len(ex.Stacks) > 0 {
			parts := make([]string, len(ex.Stacks))
			for i, st := range ex.Stacks {
				parts[i] = fmt.Sprintf("%s in %s %s", st.Site, st.Function, units.Signed(float64(st.Excess)))
			}
			s += "; the difference lies in " + strings.Join(parts, ", ")
		}
		if len(ex.Roles) > 0 {
			parts := make([]string, 0, len(ex.Roles))
			for _, r := range ex.Roles[:min(3, len(ex.Roles))] {
				parts = append(parts, r.Role+" "+units.Signed(float64(r.Excess)))
			}
			s += "; by role, " + strings.Join(parts, ", ")
		}
		return s
	}
	return ""
}
