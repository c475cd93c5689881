// Package docs_test checks that the documentation and the code agree: the
// file maps in package doc comments name files that exist, and comments
// cite the repository's own docs.
package docs_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// goFiles lists the repository's Go files (slash-separated, relative to
// root), leaving out third_party, testdata and hidden folders.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (name == "third_party" || name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no Go files under %s", root)
	}
	return out
}

// goFileName finds a Go file's name in text: "trend.go",
// "internal/units/count.go".
var goFileName = regexp.MustCompile(`[A-Za-z0-9_./-]+\.go\b`)

// TestPackageDocFileMaps checks every Go file named in a package doc
// comment (the "Where each analysis lives" maps, and file names in their
// prose) against the files of that package (or, for a name with a slash,
// of the repository): a file renamed or moved without its map fails here.
func TestPackageDocFileMaps(t *testing.T) {
	root := testutil.RepoRoot(t)
	maps := 0
	for _, rel := range goFiles(t, root) {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, rel), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if f.Doc == nil {
			continue
		}
		for _, name := range goFileName.FindAllString(f.Doc.Text(), -1) {
			maps++
			p := filepath.Join(root, filepath.Dir(rel), name)
			if strings.Contains(name, "/") {
				p = filepath.Join(root, name)
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: the package doc names %s, which does not exist", rel, name)
			}
		}
	}
	// The maps of analyze and placement alone name more than 20 files: far
	// fewer means the doc comments were not found.
	if maps < 20 {
		t.Errorf("found %d file names in package docs, want the file maps' (20 or more)", maps)
	}
}

// docCite finds a citation of a Markdown document: by its path in the
// repository (docs/design.md), by its bare name, or under the shared
// folder beside the repository.
var docCite = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)

// TestDocCitations checks that Go comments cite the repository's docs by
// their path (docs/design.md, not the bare name), that those exist, and that
// no Go file cites the shared folder beside the repository, which a fresh
// clone does not have.
func TestDocCitations(t *testing.T) {
	root := testutil.RepoRoot(t)
	cites := 0
	for _, rel := range goFiles(t, root) {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, rel), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		// Comments only: code may join "docs" and a file name itself.
		var b strings.Builder
		for _, g := range f.Comments {
			b.WriteString(g.Text())
		}
		for _, c := range docCite.FindAllString(b.String(), -1) {
			_, inDocs := os.Stat(filepath.Join(root, "docs", filepath.Base(c)))
			switch {
			case strings.Contains(c, "shared/docs"):
				t.Errorf("%s cites %s, outside the repository: cite docs/%s", rel, c, filepath.Base(c))
			case strings.HasPrefix(c, "docs/"):
				cites++
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err != nil {
					t.Errorf("%s cites %s, which does not exist", rel, c)
				}
			case inDocs == nil:
				t.Errorf("%s cites %s: cite it by its path, docs/%s", rel, c, filepath.Base(c))
			}
		}
	}
	if cites == 0 {
		t.Error("no Go file cites docs/design.md: the search finds nothing")
	}
}
