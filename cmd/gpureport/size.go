package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errNoUnit is returned by parseSizeUnit for a bare number.
var errNoUnit = errors.New("no unit")

// parseSizeUnit is parseSize for a size where a bare number is almost
// surely a mistake (--capacity 80 meant 80 GiB, not 80 bytes): the unit is
// required. It also returns how the report should name the size: the
// user's spelling, with the decimal units spelled out ("80GB = 80×10^9
// bytes"), since GB is not GiB and the report prints GiB.
func parseSizeUnit(s string) (int64, string, error) {
	t := strings.TrimSpace(s)
	if t != "" && strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }) < 0 {
		return 0, "", fmt.Errorf("%q has no unit (%w): write e.g. 80GiB (80×2^30 bytes) or 80GB (80×10^9 bytes)", s, errNoUnit)
	}
	n, err := parseSize(s)
	if err != nil {
		return 0, "", err
	}
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	desc := num + strings.TrimSpace(t[i:])
	if exp, ok := map[string]int{"kb": 3, "mb": 6, "gb": 9, "tb": 12}[unit]; ok {
		desc += fmt.Sprintf(" = %s×10^%d bytes", num, exp)
	}
	return n, desc, nil
}

// parseSize parses a byte size such as "80GiB", "80G", "512MiB", "1.5TB" or
// a plain number of bytes. K, M, G and T (with or without "iB") are powers
// of 1024; "KB", "MB", "GB" and "TB" are powers of 1000.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("invalid size %q (want e.g. 80GiB, 512MiB or a byte count)", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
		"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
		"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
		"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("invalid size %q: unknown unit %q", s, t[i:])
	}
	if f*mult > 1<<62 {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	return int64(f * mult), nil
}
