package testutil

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// Gzip returns b gzipped, failing the test if it cannot.
func Gzip(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}
