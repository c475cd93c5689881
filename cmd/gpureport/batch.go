package main

import (
	"context"
	"io"
)

// runBatch reports every run directory found under roots.
func runBatch(ctx context.Context, roots []string, opt reportOptions, stdout, stderr io.Writer) int {
	return usageError(stderr, "--batch: not implemented yet")
}
