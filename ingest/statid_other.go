//go:build !linux && !darwin

package ingest

import "os"

// identityOf reports no identity: this platform's os.FileInfo has no
// inode or change time, so there is no stat index (statindex.go).
func identityOf(os.FileInfo) (fileIdentity, bool) { return fileIdentity{}, false }
