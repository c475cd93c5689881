package report

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

// writerFiles lay out the view model; the model files (model*.go) build
// it from the Findings, report.go takes the Findings and builds it, and
// diff.go, overview.go and pprof.go lay out models of their own (a diff,
// the batch overview, the raw attribution).
var writerFiles = []string{"html.go", "xlsx.go", "markdown.go", "summary.go", "text.go", "charts.go", "view.go", "table.go"}

// TestWritersReadTheView: the writers reach nothing around the view
// model: they name neither the Findings nor a Device (the decided
// model), and call no function of package analyze (no analysis code);
// they may use its plain types, such as a stack Frame, a Flag or the raw
// readings the workbook lists.
func TestWritersReadTheView(t *testing.T) {
	fset := token.NewFileSet()
	pkg, err := importer.ForCompiler(fset, "source", nil).Import("gpureport/analyze")
	if err != nil {
		t.Fatal(err)
	}
	decided := map[string]bool{"Findings": true, "Device": true}
	for _, name := range writerFiles {
		file, err := parser.ParseFile(fset, filepath.Join(".", name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "analyze" {
				return true
			}
			at := fset.Position(sel.Pos())
			obj := pkg.Scope().Lookup(sel.Sel.Name)
			switch {
			case decided[sel.Sel.Name]:
				t.Errorf("%s: %s reads analyze.%s: lay out the view model instead", name, at, sel.Sel.Name)
			case obj == nil:
				t.Errorf("%s: %s: analyze.%s not found", name, at, sel.Sel.Name)
			default:
				if _, fn := obj.(*types.Func); fn {
					t.Errorf("%s: %s calls analyze.%s: analysis belongs in package analyze, its words in report/words", name, at, sel.Sel.Name)
				}
			}
			return true
		})
		for _, imp := range file.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); p == "gpureport/snapshot" || p == "gpureport/gpulog" || p == "gpureport/ingest" {
				t.Errorf("%s imports %s: the writers read the view model", name, p)
			}
		}
	}
}
