package report

import (
	"bytes"
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
