package main

import (
	"context"
	"io"
)

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "stats: not implemented yet")
}
