package mmapfile

import (
	"os"
	"syscall"
	"unsafe"
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14), which package
// syscall lacks.
const madvPopulateRead = 22

// Map maps the first size bytes of f read-only. It fails for what cannot
// be mapped (an empty file, a size beyond the address space, a file
// system without mappings); the caller then reads the file instead.
func Map(f *os.File, size int64) (*File, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, syscall.EINVAL
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	// Read once from start to end: read ahead far.
	_ = syscall.Madvise(b, syscall.MADV_SEQUENTIAL)
	return &File{b: b}, nil
}

// Release gives the pages of Bytes()[:n] back to the page cache (n a
// multiple of the page size): read again, they fault in from the file.
func (m *File) Release(n int) {
	_ = syscall.Madvise(m.b[:n], syscall.MADV_DONTNEED)
}

// Populate makes Bytes()[from:to] resident in one call rather than a
// fault every few pages (from is rounded down to a page; an older kernel
// refuses it, and the pages fault in as they are read).
func (m *File) Populate(from, to int) {
	from &^= os.Getpagesize() - 1
	_ = syscall.Madvise(m.b[from:to], madvPopulateRead)
}

// Close unmaps the file; nothing may read Bytes() after.
func (m *File) Close() {
	_ = syscall.Munmap(m.b)
	m.b = nil
}

func addrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
