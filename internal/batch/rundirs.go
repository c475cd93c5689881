package batch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gpureport/ingest"
)

// Run directories in batch mode.
//
// A run is a directory directly under a batch root that holds an input
// file anywhere below it (a snapshot: pickle, gzip, zip or JSON content; or a GPU
// log in a format gpureport reads), or any folder a user marks as a run by
// putting an (empty) file named .gpureport-run in it (RunMarker). A run's
// whole subtree belongs to it: snapshots/ beside logs/, per-rank folders
// (rank0, r1, local_rank_2), torchtitan's memory_snapshot/iteration_N/ are
// all read as one run. A folder directly under the root that holds marked
// folders is not a run itself: its marked folders are (mark each run of a
// deeper layout such as experiments/project/run7). A root that directly
// holds an input file, or is marked, is itself one run. Hidden folders,
// report folders (gpureport/, or any folder holding summary.json and
// index.html), the overview folder (even when given as a root, as a
// shell glob ROOT/*/ does) and symbolic links to folders are never
// entered. For deeper layouts such as experiments/project/run7 without
// marks, the projects are the roots: --batch experiments/*/. Files are told by their first bytes, as in single-run
// mode, not by their names.

// RunMarker is the name of the file that marks a folder as one run in
// batch mode, at any depth under a batch root. Its content is not read.
const RunMarker = ".gpureport-run"

// RunDir is a run directory found under a root.
type RunDir struct {
	// Path is the run directory as found (root joined with Rel).
	Path string
	// Root is the root argument it was found under.
	Root string
	// Rel is Path relative to Root, slash-separated ("." for the root
	// itself); sharding hashes it, so it is the same on every machine that
	// mounts the root elsewhere.
	Rel string
}

// FindRunDirs applies the run rule above to the roots and returns their
// run directories, sorted by path, without duplicates. skip lists folders
// not to enter (the overview folder).
func FindRunDirs(roots []string, skip []string) ([]RunDir, error) {
	var skipAbs []string
	for _, s := range skip {
		if a, err := filepath.Abs(s); err == nil {
			skipAbs = append(skipAbs, a)
		}
	}
	skipped := func(p string) bool {
		a, err := filepath.Abs(p)
		return err == nil && slices.Contains(skipAbs, a)
	}
	seen := map[string]bool{}
	var out []RunDir
	for _, root := range roots {
		st, err := os.Stat(root)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", root, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("root %s is not a directory", root)
		}
		if skipped(root) {
			// The overview folder among the roots, as a shell glob
			// (ROOT/*/) passes it: never entered, as below a root.
			continue
		}
		add := func(p string) {
			a, _ := filepath.Abs(p)
			if seen[a] {
				return
			}
			seen[a] = true
			rel, _ := filepath.Rel(root, p)
			out = append(out, RunDir{Path: p, Root: root, Rel: filepath.ToSlash(rel)})
		}
		if isMarked(root) || holdsInputFile(root) {
			add(root)
			continue
		}
		ents, err := os.ReadDir(root)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", root, err)
		}
		for _, e := range ents {
			p := filepath.Join(root, e.Name())
			if !e.IsDir() || skipFolder(p, e.Name()) || skipped(p) {
				continue
			}
			marked := markedBelow(p, skipped)
			switch {
			case isMarked(p):
				add(p)
			case len(marked) > 0:
				for _, m := range marked {
					add(m)
				}
			case holdsInputBelow(p, skipped):
				add(p)
			}
		}
	}
	slices.SortFunc(out, func(a, b RunDir) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// isMarked reports whether folder p holds the RunMarker file.
func isMarked(p string) bool {
	_, err := os.Lstat(filepath.Join(p, RunMarker))
	return err == nil
}

// walkRunTree walks the folders below dir (not dir itself) that batch mode
// enters, calling visit for each; visit returns false to stay out of a
// folder's subtree. Unreadable folders are passed over.
func walkRunTree(dir string, skipped func(string) bool, visit func(p string) bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			if err != nil && d != nil && d.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if p == dir {
			return nil
		}
		if skipFolder(p, d.Name()) || skipped(p) || !visit(p) {
			return fs.SkipDir
		}
		return nil
	})
}

// markedBelow lists the marked folders below dir, outermost only (a
// marked folder's subtree is one run).
func markedBelow(dir string, skipped func(string) bool) []string {
	var out []string
	walkRunTree(dir, skipped, func(p string) bool {
		if isMarked(p) {
			out = append(out, p)
			return false
		}
		return true
	})
	return out
}

// holdsInputBelow reports whether dir or a folder below it that batch
// mode enters directly holds an input file.
func holdsInputBelow(dir string, skipped func(string) bool) bool {
	found := holdsInputFile(dir)
	if !found {
		walkRunTree(dir, skipped, func(p string) bool {
			if !found && holdsInputFile(p) {
				found = true
			}
			return !found
		})
	}
	return found
}

// holdsInputFile reports whether folder p directly holds an input file.
func holdsInputFile(p string) bool {
	ents, err := os.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if isFileEntry(e) && ingest.IsInputFile(filepath.Join(p, e.Name())) {
			return true
		}
	}
	return false
}

// skipFolder reports whether batch mode never enters a folder: hidden
// folders and report folders.
func skipFolder(p, name string) bool {
	if strings.HasPrefix(name, ".") || name == ingest.OutputDirName {
		return true
	}
	return isReportFolder(p)
}

// isReportFolder reports whether p holds a gpureport report or overview.
func isReportFolder(p string) bool {
	if _, err := os.Stat(filepath.Join(p, "index.html")); err != nil {
		return false
	}
	for _, marker := range []string{"summary.json", overviewStateDir} {
		if _, err := os.Stat(filepath.Join(p, marker)); err == nil {
			return true
		}
	}
	return false
}

// isFileEntry reports whether a directory entry is a regular file or a
// symbolic link (which may point to one: users link snapshots into run
// folders).
func isFileEntry(e fs.DirEntry) bool {
	return e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0
}
