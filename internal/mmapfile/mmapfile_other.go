//go:build !linux

package mmapfile

import (
	"errors"
	"os"
)

// Map maps nothing here: callers read the file.
func Map(*os.File, int64) (*File, error) { return nil, errors.ErrUnsupported }

// Release does nothing: no File is made here.
func (*File) Release(int) {}

// Populate does nothing: no File is made here.
func (*File) Populate(int, int) {}

// Close does nothing: no File is made here.
func (*File) Close() {}

func addrOf([]byte) uintptr { return 0 }
