package main

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
// A directory is a run directory when it directly holds an input file (a
// snapshot: pickle, gzip or zip content; or a GPU log in a format gpureport
// reads), or when one of its direct subfolders is a rank folder (its name
// carries a rank: rank0, rank_1, rank-2) that directly holds one. A run
// directory's whole subtree belongs to that run: batch mode does not look
// for runs inside it. Hidden folders, report folders (gpureport/, or any
// folder holding summary.json and index.html), the overview folder and
// symbolic links to folders are never entered. Files are told by their
// first bytes, as in single-run mode, not by their names.

// runDir is a run directory found under a root.
type runDir struct {
	// Path is the run directory as found (root joined with Rel).
	Path string
	// Root is the root argument it was found under.
	Root string
	// Rel is Path relative to Root, slash-separated ("." for the root
	// itself); sharding hashes it, so it is the same on every machine that
	// mounts the root elsewhere.
	Rel string
}

// findRunDirs walks the roots and returns their run directories, sorted by
// path, without duplicates. skip lists folders not to enter (the overview
// folder).
func findRunDirs(roots []string, skip []string) ([]runDir, error) {
	var skipAbs []string
	for _, s := range skip {
		if a, err := filepath.Abs(s); err == nil {
			skipAbs = append(skipAbs, a)
		}
	}
	seen := map[string]bool{}
	var out []runDir
	for _, root := range roots {
		st, err := os.Stat(root)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", root, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("root %s is not a directory", root)
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				return fs.SkipDir // unreadable folder: not a run we can report
			}
			if !d.IsDir() {
				return nil
			}
			if p != root && skipFolder(p, d.Name()) {
				return fs.SkipDir
			}
			if a, err := filepath.Abs(p); err == nil && slices.Contains(skipAbs, a) {
				return fs.SkipDir
			}
			if isRunDir(p) {
				a, _ := filepath.Abs(p)
				if !seen[a] {
					seen[a] = true
					rel, _ := filepath.Rel(root, p)
					out = append(out, runDir{Path: p, Root: root, Rel: filepath.ToSlash(rel)})
				}
				return fs.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", root, err)
		}
	}
	slices.SortFunc(out, func(a, b runDir) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
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

// isRunDir applies the run directory rule to p.
func isRunDir(p string) bool {
	ents, err := os.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if isFileEntry(e) && ingest.IsInputFile(filepath.Join(p, e.Name())) {
			return true
		}
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || ingest.RankFromPath(e.Name()) == ingest.NoRank {
			continue
		}
		sub := filepath.Join(p, e.Name())
		subEnts, err := os.ReadDir(sub)
		if err != nil {
			continue
		}
		for _, se := range subEnts {
			if isFileEntry(se) && ingest.IsInputFile(filepath.Join(sub, se.Name())) {
				return true
			}
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
