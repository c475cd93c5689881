//go:build linux || darwin

package ingest

import (
	"os"
	"syscall"
)

// identityOf returns the identity of the file fi describes (os.Stat's),
// and whether the platform gives one.
func identityOf(fi os.FileInfo) (fileIdentity, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdentity{}, false
	}
	return fileIdentity{
		Size: fi.Size(), MTime: fi.ModTime().UnixNano(), CTime: ctimeOf(st),
		Ino: st.Ino, Dev: uint64(st.Dev),
	}, true
}
