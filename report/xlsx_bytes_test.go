package report

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"slices"
	"testing"
)

// TestWorkbookBytesDeterministic renders each kind of workbook several
// times: the bytes are the same every time (excelize alone writes the
// worksheets and the image content types in map order, which differed
// from save to save), the members are in name order, and
// [Content_Types].xml lists its <Default> entries by extension.
func TestWorkbookBytesDeterministic(t *testing.T) {
	fd, _ := fixtureFindings()
	workbooks := []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"report", func() ([]byte, error) { return XLSX(fd, fixedOptions) }},
		{"diff", func() ([]byte, error) { return DiffXLSX(fixtureDiff(), fixedOptions) }},
	}
	for _, wb := range workbooks {
		t.Run(wb.name, func(t *testing.T) {
			first, err := wb.render()
			if err != nil {
				t.Fatal(err)
			}
			// Eleven worksheets and thirteen image extensions in map
			// order come out the same in 5 saves by chance far less
			// often than once in 10^40.
			for i := range 5 {
				again, err := wb.render()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again, first) {
					t.Fatalf("save %d differs from the first (%d bytes, want %d)", i+2, len(again), len(first))
				}
			}
			zr := openZip(t, first)
			var names []string
			for _, m := range zr.File {
				names = append(names, m.Name)
			}
			if !slices.IsSorted(names) || names[0] != contentTypesName {
				t.Errorf("members %q, want them in name order, %s first", names, contentTypesName)
			}
			exts := defaultExtensions(zipMember(t, zr, contentTypesName))
			if len(exts) < 2 || !slices.IsSorted(exts) {
				t.Errorf("[Content_Types].xml Default extensions %q, want them sorted", exts)
			}
		})
	}
}

// defaultExtensions returns the Extension of every <Default> entry of a
// [Content_Types].xml, in order.
func defaultExtensions(contentTypes []byte) []string {
	var exts []string
	for _, m := range defaultElem.FindAllSubmatch(contentTypes, -1) {
		exts = append(exts, string(m[1]))
	}
	return exts
}

// TestSortDefaults checks the rewrite of the content types alone: only
// the <Default> entries move, each into a place where one stood.
func TestSortDefaults(t *testing.T) {
	tests := []struct{ in, want string }{
		{
			`<Types><Default Extension="xml" ContentType="a"></Default><Default Extension="png" ContentType="b"/><Override PartName="/x"></Override><Default Extension="bmp" ContentType="c"></Default></Types>`,
			`<Types><Default Extension="bmp" ContentType="c"></Default><Default Extension="png" ContentType="b"/><Override PartName="/x"></Override><Default Extension="xml" ContentType="a"></Default></Types>`,
		},
		{`<Types><Default Extension="xml" ContentType="a"/></Types>`, `<Types><Default Extension="xml" ContentType="a"/></Types>`},
		{`<Types></Types>`, `<Types></Types>`},
	}
	for _, tt := range tests {
		if got := string(sortDefaults([]byte(tt.in))); got != tt.want {
			t.Errorf("sortDefaults(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestFastZipMembersIndependent: the workbook's zip writer compresses each
// member at flate.BestSpeed with one flate.Writer, reset between members;
// a member's compressed bytes must be those of its content alone, or the
// workbook's bytes would depend on the (map) order excelize writes its
// members in. A member repeated after another compresses to the same
// bytes as its first copy and as a fresh BestSpeed writer's.
func TestFastZipMembersIndependent(t *testing.T) {
	a := bytes.Repeat([]byte("<row r=\"1\"><c t=\"s\"><v>42</v></c></row>"), 400)
	b := bytes.Repeat([]byte("<sheetData/>0123456789"), 300)
	var buf bytes.Buffer
	zw := fastZip(&buf)
	for i, data := range [][]byte{a, b, a} {
		w, err := zw.Create(fmt.Sprintf("m%d.xml", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var fresh bytes.Buffer
	fw, _ := flate.NewWriter(&fresh, flate.BestSpeed)
	fw.Write(a)
	fw.Close()
	zr := openZip(t, buf.Bytes())
	raw := func(i int) []byte {
		r, err := zr.File[i].OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		return got
	}
	if first, third := raw(0), raw(2); !bytes.Equal(first, third) || !bytes.Equal(first, fresh.Bytes()) {
		t.Errorf("member a: %d bytes first, %d after b, %d from a fresh BestSpeed writer; want all equal", len(first), len(third), fresh.Len())
	}
	if got := zipMember(t, zr, "m1.xml"); !bytes.Equal(got, b) {
		t.Errorf("member b reads back %d bytes, want %d", len(got), len(b))
	}
}
