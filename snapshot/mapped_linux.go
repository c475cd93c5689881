package snapshot

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, for a decode that
// reads them in place (wholeReader). It fails for what cannot be mapped
// (an empty file, a size beyond the address space, a file system without
// mappings); the caller then streams the file instead.
func mapFile(f *os.File, size int64) (*mappedFile, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, syscall.EINVAL
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	// The decode reads it once from start to end: read ahead far.
	_ = syscall.Madvise(b, syscall.MADV_SEQUENTIAL)
	return &mappedFile{b: b}, nil
}

// mappedFile is a file's bytes mapped into memory.
type mappedFile struct{ b []byte }

// release gives back the pages of b[:n] to the page cache: read again,
// they fault in from the file.
func (mf *mappedFile) release(n int) {
	_ = syscall.Madvise(mf.b[:n], syscall.MADV_DONTNEED)
}

// populate makes b[from:to] resident (MADV_POPULATE_READ, Linux 5.14;
// an older kernel refuses it, and the pages fault in as they are read).
func (mf *mappedFile) populate(from, to int) {
	from &^= pageSize - 1
	_ = syscall.Madvise(mf.b[from:to], madvPopulateRead)
}

// madvPopulateRead is MADV_POPULATE_READ, which package syscall lacks.
const madvPopulateRead = 22

// close unmaps the file; nothing may read b after.
func (mf *mappedFile) close() {
	_ = syscall.Munmap(mf.b)
}
