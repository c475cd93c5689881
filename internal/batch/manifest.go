package batch

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gpureport/report"
)

// The input manifest decides whether a run changed since its last report:
// every file of the run directory (the folders discovery reads: hidden
// folders and report folders excluded) with its size and modification
// time, plus a key of the options that shape the report. It is written
// into the report folder after the report, so a crash before it leaves
// the run to be reported again next time. Re-checking costs one stat per
// file, no reads.

// manifest is the record of a report's inputs.
type manifest struct {
	Schema string `json:"schema"`
	// Key identifies gpureport's version and the options that shape the
	// report (Options.Key).
	Key   string         `json:"key"`
	Files []manifestFile `json:"files"`
}

// manifestFile is one input file.
type manifestFile struct {
	// Path is relative to the run directory, slash-separated.
	Path string `json:"path"`
	// Size is in bytes; ModTime in nanoseconds since the Unix epoch.
	Size    int64 `json:"size"`
	ModTime int64 `json:"mtime_ns"`
}

// scanManifest lists the files of run directory dir as a manifest with
// key; outDir (the report folder) is left out.
func scanManifest(dir, outDir, key string) (*manifest, error) {
	m := &manifest{Schema: manifestSchema, Key: key}
	outAbs, _ := filepath.Abs(outDir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == dir {
				return nil
			}
			if skipFolder(p, d.Name()) {
				return fs.SkipDir
			}
			if a, _ := filepath.Abs(p); a == outAbs {
				return fs.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		m.Files = append(m.Files, manifestFile{Path: filepath.ToSlash(rel), Size: info.Size(), ModTime: info.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(m.Files, func(a, b manifestFile) int { return strings.Compare(a.Path, b.Path) })
	return m, nil
}

// readManifest reads the manifest in outDir; nil when there is none or it
// cannot be read (the run is then reported again).
func readManifest(outDir string) *manifest {
	var m manifest
	if readState(filepath.Join(outDir, manifestName), &m, &m.Schema, manifestSchema) != nil {
		return nil
	}
	return &m
}

// writeManifest stores m in outDir atomically.
func writeManifest(outDir string, m *manifest) error {
	return writeState(filepath.Join(outDir, manifestName), m, false)
}

// equal reports whether two manifests describe the same inputs and key.
func (m *manifest) equal(o *manifest) bool {
	return m != nil && o != nil && m.Key == o.Key && slices.Equal(m.Files, o.Files)
}

// reportComplete reports whether outDir holds every report file.
func reportComplete(outDir string) bool {
	for _, n := range []string{report.HTMLFile, report.XLSXFile, report.SummaryFile, report.MarkdownFile} {
		if _, err := os.Stat(filepath.Join(outDir, n)); err != nil {
			return false
		}
	}
	return true
}
