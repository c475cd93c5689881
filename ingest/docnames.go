package ingest

import (
	"path/filepath"
	"regexp"
	"strings"
)

// A run folder often holds its own documentation: a README, NOTES or
// LICENSE (often without an extension), a Markdown or reStructuredText
// page. Such a file may quote an OOM message or an nvidia-smi table (a
// write-up of the failure), but it is no output of the job: discovery
// never reads one as an input, whatever its content.

// reDocName matches the stem of a documentation file's name: README,
// NOTES, LICENSE and the like, alone or followed by '.', '_' or '-' and
// more ("README.txt", "notes-run3", "LICENSE-APACHE"), in any case. A
// word that only starts so ("notebook.log", "readme_gen.py" is source
// anyway) is not one.
var reDocName = regexp.MustCompile(`(?i)^(?:readme|notes?|licen[cs]e|changelog|changes|copying|authors|contributing|todo)(?:[._-].*)?$`)

// isDocumentation reports whether a file is documentation by its name
// (see above): a documentation stem with no extension or a text one
// (.txt), or a Markdown or reStructuredText extension.
func isDocumentation(p string) bool {
	base := filepath.Base(p)
	switch strings.ToLower(filepath.Ext(base)) {
	case ".md", ".markdown", ".rst":
		return true
	case "", ".txt", ".text":
		// Only as text: notes.pickle, notes.csv are named for what
		// they hold, and read by content.
		return reDocName.MatchString(base)
	}
	return false
}
