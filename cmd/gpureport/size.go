package main

import (
	"fmt"
	"strconv"
	"strings"
)

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
