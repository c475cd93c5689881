package main

import (
	"flag"
	"fmt"
	"strconv"
)

// override is a flag whose value replaces a field of what a command starts
// from (the shape -shape names, the spec -scenario and -seed draw) only
// when the flag is given. What it replaces depends on other flags, so it
// has no default of its own to show in -h, and no value of the field
// (0, -1) has to stand for "not given".
type override[T any] struct {
	value T
	// given reports whether the flag was on the command line.
	given bool
	parse func(string) (T, error)
}

// overrideFlag defines the flag name on fs, parsed by parse. The usage
// should say what is kept when the flag is not given, and name the value
// in back quotes, as -h shows it ("`n` snapshots": -snapshots n).
func overrideFlag[T any](fs *flag.FlagSet, name, usage string, parse func(string) (T, error)) *override[T] {
	o := &override[T]{parse: parse}
	fs.Var(o, name, usage)
	return o
}

// String returns the value given, or "" (so that -h shows no default).
func (o *override[T]) String() string {
	if o == nil || !o.given {
		return ""
	}
	return fmt.Sprint(o.value)
}

// Set parses a value given on the command line.
func (o *override[T]) Set(s string) error {
	v, err := o.parse(s)
	if err != nil {
		return err
	}
	o.value, o.given = v, true
	return nil
}

// apply sets *field to the value when the flag was given.
func (o *override[T]) apply(field *T) {
	if o.given {
		*field = o.value
	}
}

// parseInt reads an int as the flag package's Int flags do (0x, 0o and 0b
// prefixes allowed).
func parseInt(s string) (int, error) {
	v, err := strconv.ParseInt(s, 0, strconv.IntSize)
	return int(v), err
}

// parseUint64 reads a uint64 as the flag package's Uint64 flags do.
func parseUint64(s string) (uint64, error) {
	return strconv.ParseUint(s, 0, 64)
}
