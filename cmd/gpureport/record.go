package main

import (
	"context"
	"io"
)

func runRecord(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "record: not implemented yet")
}
