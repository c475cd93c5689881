package main

import "io"

func cmdCorpus(args []string, stdout io.Writer) error { return usageErr("not yet") }
func cmdBig(args []string, stdout io.Writer) error    { return usageErr("not yet") }
func cmdRun(args []string, stdout io.Writer) error    { return usageErr("not yet") }
