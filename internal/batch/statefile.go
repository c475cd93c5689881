package batch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"gpureport/report"
)

// Batch mode keeps small JSON state files beside the reports: a run's
// input manifest (manifest.go) inside its report folder, and each shard's
// part of the overview (overviewparts.go) in the overview's state folder.
// Each names its layout in a schema field, so that a file of another
// layout (an older or newer gpureport) is ignored, and its work redone,
// rather than misread. Both are written atomically.
const (
	// manifestName is the manifest's file name inside a run's report folder.
	manifestName = ".inputs.json"
	// manifestSchema names the manifest layout.
	manifestSchema = "gpureport/inputs/v1"
	// overviewStateDir is the state folder inside the overview folder.
	overviewStateDir = ".gpureport"
	// partSchema names the overview part layout.
	partSchema = "gpureport/overview-part/v1"
)

// readState decodes the JSON state file at path into v, whose schema
// field (*schema, filled by the decoding) must then read want. A file
// that cannot be read gives its *fs.PathError; one that is not JSON of
// that layout gives another error.
func readState(path string, v any, schema *string, want string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	if *schema != want {
		return fmt.Errorf("layout %q, want %q", *schema, want)
	}
	return nil
}

// writeState stores v as JSON at path atomically, making its folder
// first; indent spaces it out for people who look (the overview parts),
// while a manifest, which can list thousands of files, stays compact.
func writeState(path string, v any, indent bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(v, "", " ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(path, b, 0o644)
}
