// Package mmapfile maps a file's bytes read-only into memory, for a
// reader that reads them in place rather than copying them through a
// buffer (the snapshot decoder), and tells a fault
// reading a mapping apart from any other panic.
//
// A mapping is made on Linux only; elsewhere Map fails with
// errors.ErrUnsupported and callers read the file as before. A file cut
// shorter while mapped makes reading its lost pages fault (SIGBUS): a
// reader runs with debug.SetPanicOnFault set on its goroutine and turns
// the panic into an error with Fault.
package mmapfile

// File is a file's bytes mapped read-only.
type File struct{ b []byte }

// Bytes returns the mapped bytes, valid until Close; they must never be
// written.
func (m *File) Bytes() []byte { return m.b }

// Fault reports whether p, a recovered panic, is a fault reading m's
// bytes (a debug.SetPanicOnFault panic at an address inside them), and
// the offset in the file it happened at.
func (m *File) Fault(p any) (offset int64, ok bool) {
	re, isAddr := p.(interface{ Addr() uintptr })
	if !isAddr || len(m.b) == 0 {
		return 0, false
	}
	start := addrOf(m.b)
	at := re.Addr()
	if at < start || at-start >= uintptr(len(m.b)) {
		return 0, false
	}
	return int64(at - start), true
}
