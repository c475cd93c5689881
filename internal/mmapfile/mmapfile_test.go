package mmapfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// mapped writes data to a file and maps it, skipping where files are not
// mapped.
func mapped(t *testing.T, data []byte) (*File, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() // a mapping outlives its descriptor
	m, err := Map(f, int64(len(data)))
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no mapped files on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, p
}

// TestMapReadsTheFile maps a file of a few pages: its bytes are the
// file's, before and after its first pages are released and made
// resident again.
func TestMapReadsTheFile(t *testing.T) {
	data := make([]byte, 5*65536+123)
	for i := range data {
		data[i] = byte(i * 7)
	}
	m, _ := mapped(t, data)
	if !bytes.Equal(m.Bytes(), data) {
		t.Fatal("the mapping is not the file's bytes")
	}
	m.Release(2 * 65536)
	m.Populate(100, 3*65536)
	if !bytes.Equal(m.Bytes(), data) {
		t.Fatal("the mapping changed after a release and a populate")
	}
	if _, err := Map(nil, 0); err == nil {
		t.Fatal("an empty mapping was made")
	}
}

// TestFaultTellsTheMappingsFault cuts a mapped file to its first page
// and reads its last byte with faults turned into panics: Fault must
// name the offset, and must refuse other panics.
func TestFaultTellsTheMappingsFault(t *testing.T) {
	data := bytes.Repeat([]byte{1}, 3*65536)
	m, p := mapped(t, data)
	if err := os.Truncate(p, 65536); err != nil {
		t.Fatal(err)
	}
	var read byte
	got := func() (r any) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { r = recover() }()
		read = m.Bytes()[len(data)-1]
		return nil
	}()
	off, ok := m.Fault(got)
	if !ok || off != int64(len(data)-1) {
		t.Fatalf("Fault(%v) = %d, %v; want %d, true (read %d)", got, off, ok, len(data)-1, read)
	}
	if _, ok := m.Fault("some other panic"); ok {
		t.Fatal("a string panic taken for a fault")
	}
}
