// Package templates embeds the static assets of gpureport's reports: the
// HTML page templates, the style sheet, the page script and the pinned
// echarts 5.4.3 build (from the echarts npm package) with its licenses.
// Everything a report needs is compiled into the binary, so a report opens
// offline and gpureport needs nothing installed beside it.
package templates

import (
	"embed"
	"html/template"
)

// EchartsVersion is the version of the embedded echarts build.
const EchartsVersion = "5.4.3"

// Echarts is echarts.min.js 5.4.3, inlined into every HTML report.
//
//go:embed echarts/echarts.min.js
var Echarts string

//go:embed echarts/LICENSE
var echartsLicense string

//go:embed echarts/NOTICE
var echartsNotice string

//go:embed echarts/LICENSE-d3
var d3License string

// License is a third-party license shipped with the reports.
type License struct {
	// Component names what the license covers.
	Component string
	// Name is the license file's name in the echarts package.
	Name string
	// Text is the license text.
	Text string
}

// Licenses returns the licenses of the third-party code embedded in the
// HTML reports (echarts, and the d3 code it includes), in display order.
func Licenses() []License {
	return []License{
		{Component: "Apache ECharts " + EchartsVersion, Name: "LICENSE", Text: echartsLicense},
		{Component: "Apache ECharts " + EchartsVersion, Name: "NOTICE", Text: echartsNotice},
		{Component: "d3 (parts bundled in ECharts)", Name: "LICENSE-d3", Text: d3License},
	}
}

// Pages holds the page templates (*.html), the start they share
// (head.html), the style sheet (style.css) and the page script (page.js).
//
//go:embed report.html overview.html diff.html head.html style.css page.js
var Pages embed.FS

// MustRead returns the named file of Pages; it panics when the file is
// missing, which is a build defect, never an input problem.
func MustRead(name string) string {
	b, err := Pages.ReadFile(name)
	if err != nil {
		panic("templates: " + err.Error())
	}
	return string(b)
}

// Page returns the named page template (report.html, overview.html or
// diff.html), parsed with funcs over head.html, the document start that
// every page shares. It panics on a parse error, which is a build defect,
// never an input problem.
func Page(name string, funcs template.FuncMap) *template.Template {
	t := template.New(name).Funcs(funcs)
	template.Must(t.New("head.html").Parse(MustRead("head.html")))
	return template.Must(t.Parse(MustRead(name)))
}
