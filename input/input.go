// Package input holds what every input file of a run has, whatever it
// holds: where it is (Source), the error that names it (FileError), and
// the markers for a training step or distributed rank that a file does not
// give (NoStep, NoRank). It is the one package that both the snapshot
// decoder (package snapshot) and the GPU-log readers (package gpulog) use,
// so that neither depends on the other or on package ingest.
package input

import (
	"fmt"
	"io/fs"
	"time"
)

// Source describes an input file.
type Source struct {
	// Path is the file's path relative to the run directory, with forward
	// slashes (the path as given when it is not under the run directory).
	Path string
	// Bytes is the file size on disk.
	Bytes int64
	// ModTime is the file's modification time.
	ModTime time.Time
}

// NoStep and NoRank mark a step or rank that the file name does not give.
const (
	NoStep int64 = -1
	NoRank int   = -1
)

// FileError is an error about one input file. Path names the file, once;
// Err says what is wrong with it without repeating the path, so a list
// that prints the path beside the reason (Skipped) uses Err alone.
type FileError struct {
	// Path is the file, as the caller named it.
	Path string
	// Err is the problem.
	Err error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the problem.
func (e *FileError) Unwrap() error { return e.Err }

// NewFileError wraps err, from reading the file at path, in a *FileError. An
// *fs.PathError about path itself (from opening or stat'ing it) keeps only
// its operation and cause, so the message names the path once.
func NewFileError(path string, err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path == path {
		err = fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return &FileError{Path: path, Err: err}
}
