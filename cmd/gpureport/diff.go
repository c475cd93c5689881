package main

import (
	"context"
	"io"
)

func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "diff: not implemented yet")
}
