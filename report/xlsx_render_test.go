package report

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpureport/report/words"
)

// testOutputDir is where a test saves what a person would look at
// (screenshots, rendered workbook pages): $GPUREPORT_SCREENSHOTS/<test>
// when set, else a temporary folder. The path is logged either way.
func testOutputDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if root := os.Getenv("GPUREPORT_SCREENSHOTS"); root != "" {
		dir = filepath.Join(root, t.Name())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("rendered output in %s", dir)
	return dir
}

// findTool returns the path of a program a rendering test needs, or skips
// the test saying how to install it; under CI=true a missing program is a
// failure (.ci/run installs them).
func findTool(t *testing.T, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s is not installed (apt-get install -y %s)", name, pkg)
	}
	t.Skipf("%s not installed (apt-get install -y --no-install-recommends %s); CI=true makes this a failure", name, pkg)
	return ""
}

// drawingRef matches the sheet element that names its drawing part, under
// whichever prefix the relationships namespace is bound to (excelize's
// stream writer writes xmlns:relationships=... relationships:id=...).
var drawingRef = regexp.MustCompile(`<drawing[^>]*\b(r|relationships):id="rId\d+"`)

// sheetXML returns the XML of each worksheet of an xlsx file, by sheet
// name.
func sheetXML(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr := openZip(t, b)
	out := map[string]string{}
	for i, name := range xlsxSheets {
		out[name] = string(zipMember(t, zr, fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)))
	}
	return out
}

// openZip opens an xlsx file's zip archive.
func openZip(t *testing.T, b []byte) *zip.Reader {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// zipMember returns the bytes of the archive member name.
func zipMember(t *testing.T, zr *zip.Reader, name string) []byte {
	t.Helper()
	f, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return data
}

// TestXLSXChartsAttached: the Trend and Roles sheets' XML name their
// drawings, so a spreadsheet program shows the charts (excelize drops the
// element of a chart added after its stream writer was flushed).
func TestXLSXChartsAttached(t *testing.T) {
	fd, _ := fixtureFindings()
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	sheets := sheetXML(t, b)
	charted := map[string]bool{"Trend": true, "Roles": true}
	for name, x := range sheets {
		switch has := drawingRef.MatchString(x); {
		case charted[name] && !has:
			t.Errorf("%s sheet XML has no <drawing r:id>; its charts are invisible:\n%s", name, tail(x, 600))
		case !charted[name] && strings.Contains(x, "<drawing"):
			t.Errorf("sheet %s has a drawing; only Trend and Roles have charts", name)
		}
	}
}

// TestXLSXPrintLayout checks how each sheet prints: landscape, and the
// sheets narrow enough (Summary, Inputs) shrunk to one page wide so that
// a row's cells share a page, while a wide one (Snapshots, dozens of
// columns) prints at full size across pages rather than unreadably small.
func TestXLSXPrintLayout(t *testing.T) {
	fd, _ := fixtureFindings()
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	sheets := sheetXML(t, b)
	for _, tc := range []struct {
		sheet string
		fit   bool
	}{{"Summary", true}, {"Inputs", true}, {"Snapshots", false}} {
		x, ok := sheets[tc.sheet]
		if !ok {
			t.Fatalf("no sheet %s", tc.sheet)
		}
		if !strings.Contains(x, `orientation="landscape"`) {
			t.Errorf("%s does not print landscape:\n%s", tc.sheet, tail(x, 600))
		}
		fits := strings.Contains(x, `fitToPage="1"`) || strings.Contains(x, `fitToPage="true"`)
		if fits != tc.fit || strings.Contains(x, `fitToWidth="1"`) != tc.fit {
			t.Errorf("%s: fit to one page wide = %v, want %v:\n%s", tc.sheet, fits, tc.fit, tail(x, 600))
		}
	}
}

// TestXLSXInLibreOffice opens the workbook the way a user does: LibreOffice
// converts it to PDF, poppler renders each page to PNG (kept in the test's
// output folder). The PDF must carry the cells (a run name, a p-value as
// "< 0.001", projection units) and each device's charts, its timeline and
// its stacked roles: each title drawn on a page whose image has the
// series' coloured lines or areas.
func TestXLSXInLibreOffice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts LibreOffice")
	}
	soffice := findTool(t, "soffice", "libreoffice-calc")
	pdftoppm := findTool(t, "pdftoppm", "poppler-utils")
	pdftotext := findTool(t, "pdftotext", "poppler-utils")
	fd, _ := fixtureFindings()
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	out := testOutputDir(t)
	work := t.TempDir()
	xlsx := filepath.Join(work, "report.xlsx")
	if err := os.WriteFile(xlsx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := func(name string, args ...string) []byte {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = append(os.Environ(), "HOME="+work)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		o, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", filepath.Base(name), err, tail(stderr.String(), 2000))
		}
		return o
	}
	run(soffice, "-env:UserInstallation=file://"+filepath.Join(work, "lo-profile"), "--headless", "--norestore",
		"--convert-to", "pdf", "--outdir", out, xlsx)
	pdf := filepath.Join(out, "report.pdf")
	text := string(run(pdftotext, "-layout", pdf, "-"))
	pages := strings.Split(text, "\f")
	for _, want := range []string{"/data/experiments/run42", "< 0.001", "allocated_bytes"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF has no %q", want)
		}
	}
	// The Summary sheet prints one page wide: a field's name and its
	// value on the same page.
	for _, p := range pages {
		if strings.Contains(p, "/data/experiments/run42") && !strings.Contains(p, "Field") {
			t.Errorf("the Summary's value column prints on a page without its field column:\n%s", tail(p, 800))
		}
	}
	if strings.Contains(text, "0.0000") {
		t.Error(`a p-value prints as "0.0000"`)
	}
	run(pdftoppm, "-png", "-r", "60", pdf, filepath.Join(out, "page"))
	var titles []string
	for _, d := range fd.Devices {
		titles = append(titles, "Timeline "+words.Device(d.DeviceKey), "What holds the memory, "+words.Device(d.DeviceKey))
	}
	for _, title := range titles {
		page := -1
		for i, p := range pages {
			if strings.Contains(p, title) {
				page = i
				break
			}
		}
		if page < 0 {
			t.Errorf("no page shows the chart %q: the chart is not drawn", title)
			continue
		}
		img := pageImage(t, out, page+1, len(pages))
		if n := colouredPixels(img); n < 200 {
			t.Errorf("page %d with %q has %d coloured pixels; want the chart's lines drawn", page+1, title, n)
		}
	}
}

// pageImage reads page n (1-based) rendered by pdftoppm, whose file names
// pad the number to the width of the page count.
func pageImage(t *testing.T, dir string, n, pages int) image.Image {
	t.Helper()
	for w := 1; w <= 4; w++ {
		p := filepath.Join(dir, fmt.Sprintf("page-%0*d.png", w, n))
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Fatalf("no rendered image of page %d of %d in %s", n, pages, dir)
	return nil
}

// colouredPixels counts strongly saturated pixels: chart series lines are
// coloured; text, grid lines and cell borders are grey.
func colouredPixels(img image.Image) int {
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			hi, lo := max(cr, cg, cb)>>8, min(cr, cg, cb)>>8
			if hi-lo > 90 {
				n++
			}
		}
	}
	return n
}
