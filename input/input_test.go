package input

import (
	"errors"
	"io/fs"
	"testing"
)

// TestNewFileError checks that the message names the file once, that a
// *fs.PathError about another file keeps its path, and that the cause
// stays reachable through errors.Is.
func TestNewFileError(t *testing.T) {
	bad := errors.New("bad magic")
	tests := []struct {
		name  string
		err   error
		want  string
		cause error
	}{
		{"open error about the file", &fs.PathError{Op: "open", Path: "run/a.pickle", Err: fs.ErrNotExist},
			"run/a.pickle: open: file does not exist", fs.ErrNotExist},
		{"path error about another file", &fs.PathError{Op: "open", Path: "other", Err: fs.ErrPermission},
			"run/a.pickle: open other: permission denied", fs.ErrPermission},
		{"content error", bad, "run/a.pickle: bad magic", bad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewFileError("run/a.pickle", tt.err)
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != "run/a.pickle" {
				t.Fatalf("%v is no *FileError for the file", err)
			}
			if err.Error() != tt.want {
				t.Errorf("message %q, want %q", err.Error(), tt.want)
			}
			if !errors.Is(err, tt.cause) {
				t.Errorf("%v does not wrap %v", err, tt.cause)
			}
		})
	}
}
