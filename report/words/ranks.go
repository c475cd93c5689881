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
