package report

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// contentTypesName is the member of an .xlsx file that lists the MIME type
// of every part (Office Open XML, ECMA-376 part 2).
const contentTypesName = "[Content_Types].xml"

// defaultElem matches one <Default Extension="..." ContentType="..."> entry
// of [Content_Types].xml, as excelize writes it.
var defaultElem = regexp.MustCompile(`<Default Extension="([^"]*)"[^>]*?(?:/>|></Default>)`)

// workbookBytes returns f as an .xlsx file whose bytes depend on its
// content alone, so that two reports of the same run (SOURCE_DATE_EPOCH
// pinning the report time) are byte-identical, as index.html and
// summary.json are. excelize writes the worksheets into the zip archive
// in Go's map order, and adds the image extensions to [Content_Types].xml
// in map order when a sheet gets a drawing (a chart), so two saves of one
// workbook differ; canonicalXLSX orders both.
func workbookBytes(f *excelize.File) ([]byte, error) {
	buf, err := f.SetZipWriter(fastZip).WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", XLSXFile, err)
	}
	b, err := canonicalXLSX(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", XLSXFile, err)
	}
	return b, nil
}

// fastZip is the workbook's zip writer: Deflate at flate.BestSpeed
// rather than the default level. Compression was half the time of making
// a big run's workbook (BenchmarkXLSX: a run with a long GPU log, whose
// samples fill a sheet), and the files the default level saves a few
// percent of are not kept by the thousand; LibreOffice and Excel read
// any Deflate level.
// The archive writes its members one at a time, each compressor closed
// before the next is asked for, so one flate.Writer (600 KB of tables)
// serves them all.
func fastZip(w io.Writer) excelize.ZipWriter {
	zw := zip.NewWriter(w)
	var fw *flate.Writer
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		if fw == nil {
			var err error
			fw, err = flate.NewWriter(out, flate.BestSpeed)
			return fw, err
		}
		fw.Reset(out)
		return fw, nil
	})
	return zw
}

// canonicalXLSX rewrites the zip archive xlsx with its members in name
// order ([Content_Types].xml first, as '[' sorts before '_' and the
// letters) and the <Default> entries of its [Content_Types].xml in
// extension order. Every other member is copied as it was written,
// compressed bytes and all.
func canonicalXLSX(xlsx []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		return nil, err
	}
	members := slices.Clone(zr.File)
	slices.SortStableFunc(members, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	var out bytes.Buffer
	out.Grow(len(xlsx))
	zw := zip.NewWriter(&out)
	for _, m := range members {
		if m.Name != contentTypesName {
			if err := zw.Copy(m); err != nil {
				return nil, err
			}
			continue
		}
		rc, err := m.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.Name, Method: m.Method, Modified: m.Modified})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(sortDefaults(data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// sortDefaults returns the content-types XML with its <Default> entries in
// extension order, each in the place one of them stood; everything else
// is left as it is.
func sortDefaults(data []byte) []byte {
	locs := defaultElem.FindAllSubmatchIndex(data, -1)
	if len(locs) < 2 {
		return data
	}
	type entry struct{ ext, elem []byte }
	entries := make([]entry, len(locs))
	for i, l := range locs {
		entries[i] = entry{ext: data[l[2]:l[3]], elem: data[l[0]:l[1]]}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return bytes.Compare(a.ext, b.ext) })
	var out bytes.Buffer
	out.Grow(len(data))
	prev := 0
	for i, l := range locs {
		out.Write(data[prev:l[0]])
		out.Write(entries[i].elem)
		prev = l[1]
	}
	out.Write(data[prev:])
	return out.Bytes()
}
