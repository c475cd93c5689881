package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// binaryUnits are the IEC units, in powers of 1024.
var binaryUnits = [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// decimalUnits are the SI units, in powers of 1000.
var decimalUnits = [...]string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}

// BinaryUnit returns the binary unit that suits a magnitude of n bytes and
// its size in bytes: ("GiB", 1<<30) for n = 3<<30. A magnitude that would
// print as 1024 of a unit (1023.9 MiB) takes the next unit up.
func BinaryUnit(n float64) (string, float64) {
	return unitFor(n, 1024, binaryUnits[:])
}

// unitFor picks the unit of names (each base times the one before) whose
// three significant digits show n without reaching base.
func unitFor(n, base float64, names []string) (string, float64) {
	n = math.Abs(n)
	i, size := 0, 1.0
	// 0.9995: a value that rounds to 1000 (or 1024) of a unit at three
	// significant digits is shown in the next unit.
	for i < len(names)-1 && n >= size*base*0.9995 {
		size *= base
		i++
	}
	return names[i], size
}

// Bytes formats a byte count with a binary unit and three significant
// digits: "0 B", "512 B", "1.50 KiB", "12.3 MiB", "80.0 GiB".
func Bytes(n int64) string { return BytesF(float64(n)) }

// BytesF is Bytes for a fractional or negative byte count (a slope, a
// difference): "-1.50 GiB", "0.5 B"; "n/a" for NaN and infinities. A
// negative zero (a slope of -0.0 from the fit) is "0 B", not "-0 B".
func BytesF(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if x == 0 {
		return "0 B"
	}
	unit, size := BinaryUnit(x)
	if unit == "B" {
		if x == math.Trunc(x) {
			return strconv.FormatFloat(x, 'f', 0, 64) + " B"
		}
		return strconv.FormatFloat(x, 'f', 1, 64) + " B"
	}
	return sig3(x/size) + " " + unit
}

// DecimalBytes formats a byte count with a decimal SI unit and three
// significant digits, as disk and network sizes are given: "512 B",
// "1.50 kB", "80.0 GB" (80×10^9 bytes).
func DecimalBytes(n int64) string {
	unit, size := unitFor(float64(n), 1000, decimalUnits[:])
	if unit == "B" {
		return strconv.FormatInt(n, 10) + " B"
	}
	return sig3(float64(n)/size) + " " + unit
}

// Signed is BytesF with an explicit sign, for a change in bytes:
// "+1.50 GiB", "-12.0 MiB", "0 B".
func Signed(x float64) string {
	s := BytesF(x)
	if x > 0 && !math.IsInf(x, 0) {
		return "+" + s
	}
	return s
}

// sig3 formats v with three significant digits (at least the integer
// part): 1.50, 12.3, 512, 1023.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 99.95:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Convention says what the decimal spellings KB, MB, GB and TB mean.
type Convention int

const (
	// SI reads KB, MB, GB and TB as powers of 1000, as a person writes a
	// size on the command line ("80GB" is 80×10^9 bytes).
	SI Convention = iota
	// Binary reads KB, MB, GB and TB as powers of 1024, as nvidia-smi and
	// PyTorch print them ("841MB" is 841 MiB).
	Binary
)

// UnitBytes returns the size in bytes of a unit, case-insensitive: "",
// "B" and "bytes" are 1; "K", "KiB", "M", "MiB", "G", "GiB", "T" and "TiB"
// are powers of 1024; "KB", "MB", "GB" and "TB" are powers of 1000 or
// 1024 by c. ok is false for any other unit.
func UnitBytes(unit string, c Convention) (size int64, ok bool) {
	u := strings.ToLower(strings.TrimSpace(unit))
	switch u {
	case "", "b", "bytes":
		return 1, true
	}
	exp := strings.IndexByte("kmgt", u[0]) + 1
	if exp == 0 {
		return 0, false
	}
	switch u[1:] {
	case "", "ib":
		return 1 << (10 * exp), true
	case "b":
		if c == Binary {
			return 1 << (10 * exp), true
		}
		return int64(math.Pow(1000, float64(exp))), true
	}
	return 0, false
}

// SplitUnit splits "841 MiB" or "841MiB" into its number and its unit,
// both trimmed: ("841", "MiB"). A string without a unit gives ("841", "").
func SplitUnit(s string) (num, unit string) {
	s = strings.TrimSpace(s)
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c >= '0' && c <= '9' || c == '.' {
			break
		}
		i--
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
}

// maxSize is the largest size ParseSize accepts, in bytes (4 EiB: well
// above any device, well below int64's limit).
const maxSize = 1 << 62

// ErrNoUnit is wrapped by ParseSizeUnit's error for a bare number: the
// caller turns it into a usage error with an example.
var ErrNoUnit = errors.New("no unit")

// ParseSize parses a byte size such as "80GiB", "80G", "512 MiB",
// "1.5TB" or a plain number of bytes, with SI's decimal units: "80GB" is
// 80×10^9 bytes. It returns the size in bytes.
func ParseSize(s string) (int64, error) {
	num, unit := SplitUnit(s)
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsNaN(f) {
		return 0, fmt.Errorf("invalid size %q (want e.g. 80GiB, 512MiB or a byte count)", s)
	}
	size, ok := UnitBytes(unit, SI)
	if !ok {
		return 0, fmt.Errorf("invalid size %q: unknown unit %q", s, unit)
	}
	if f*float64(size) > maxSize {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	return int64(f * float64(size)), nil
}

// ParseSizeUnit is ParseSize for a size where a bare number is almost
// surely a mistake (a capacity of 80 meant 80 GiB, not 80 bytes): the
// unit is required, and its absence is an error wrapping ErrNoUnit. It
// also returns how a report should name the size: the user's spelling,
// with a decimal unit spelled out ("80GB = 80×10^9 bytes"), since GB is
// not GiB and the report prints GiB.
func ParseSizeUnit(s string) (int64, string, error) {
	num, unit := SplitUnit(s)
	if unit == "" && num != "" {
		return 0, "", fmt.Errorf("%q has no unit (%w): write e.g. 80GiB (80×2^30 bytes) or 80GB (80×10^9 bytes)", s, ErrNoUnit)
	}
	n, err := ParseSize(s)
	if err != nil {
		return 0, "", err
	}
	desc := num + unit
	if u := strings.ToLower(unit); len(u) == 2 && u[1] == 'b' {
		// KB, MB, GB, TB: 10^3, 10^6, 10^9, 10^12 (UnitBytes accepted it).
		desc += fmt.Sprintf(" = %s×10^%d bytes", num, 3*(strings.IndexByte("kmgt", u[0])+1))
	}
	return n, desc, nil
}
