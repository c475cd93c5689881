package main

import (
	"context"
	"io"
)

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "eval: not implemented yet")
}
