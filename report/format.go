package report

import (
	"time"

	"gpureport/internal/units"
)

// The writers' names for internal/units' formatters, which own the
// wording of every figure (bytes with binary units, rates with their 95%
// interval, p-values, counts, durations); each returns "n/a" (or "") for
// NaN and infinities rather than printing them.

// Bytes formats a byte count: "512 B", "1.50 KiB", "80.0 GiB".
func Bytes(n int64) string { return units.Bytes(n) }

// BytesF is Bytes for a fractional or negative byte count: "-1.50 GiB".
func BytesF(x float64) string { return units.BytesF(x) }

// SignedBytes is BytesF with an explicit sign: "+1.50 GiB", "0 B".
func SignedBytes(x float64) string { return units.Signed(x) }

// Rate formats a growth rate in bytes per unit of x: "+12.3 MiB/step".
func Rate(bytesPer float64, per units.Per) string { return units.Rate(bytesPer, per) }

// RateCI formats a growth rate in bytes per unit of x with its 95%
// interval: "+12.3 MiB/step (95% CI +11.1 to +13.5 MiB)".
func RateCI(slope, lo, hi float64, per units.Per) string {
	return units.RateCI(slope, lo, hi, per)
}

// PValue formats a p-value: "p=0.032", "p<0.001", "p=n/a".
func PValue(p float64) string { return units.PValue(p) }

// Percent formats a share (0..1) as a percentage: 0.425 is "42.5%".
func Percent(share float64) string { return units.Percent(share) }

// Count formats an integer with thousands separators: "1,234,567".
func Count(n int64) string { return units.Count(n) }

// Hours formats a duration given in hours: "45 min", "3.2 hours".
func Hours(h float64) string { return units.Hours(h) }

// AxisAmount formats an amount of x on a device axis: "1,200 steps",
// "3.2 hours".
func AxisAmount(x float64, per units.Per) string { return units.AxisAmount(x, per) }

// Relative formats t relative to now: "5 min ago", "in 2.00 days".
func Relative(t, now time.Time) string { return units.Relative(t, now) }

// Timestamp formats a time as RFC 3339 in UTC, "" for the zero time.
func Timestamp(t time.Time) string { return units.Timestamp(t) }

// Number formats a float with up to 4 significant digits, "n/a" for NaN.
func Number(v float64) string { return units.Number(v) }
