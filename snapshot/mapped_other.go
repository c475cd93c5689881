//go:build !linux

package snapshot

import (
	"errors"
	"os"
)

// mapFile maps nothing here: the decode streams the file.
func mapFile(*os.File, int64) (*mappedFile, error) {
	return nil, errors.ErrUnsupported
}

// mappedFile is never made on this system.
type mappedFile struct{ b []byte }

func (*mappedFile) release(int)       {}
func (*mappedFile) populate(int, int) {}
func (*mappedFile) close()            {}
