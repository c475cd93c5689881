package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"gpureport/analyze"
)

// maxMarkdownSuspects bounds the suspects listed in summary.md.
const maxMarkdownSuspects = 5

// maxMarkdownSkipped bounds the skipped files named in summary.md, so a
// folder of 1,000 unreadable files does not bury the verdict.
const maxMarkdownSkipped = 20

// Markdown renders summary.md: a short digest to paste into a ticket with
// the verdict, key figures, top suspects with fingerprints and what to try
// next. Untrusted text (paths, frames) is escaped so it renders as text.
func Markdown(f *analyze.Findings, opt Options) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# gpureport: %s\n\n", mdEscape(f.Run))
	fmt.Fprintf(&b, "**Verdict: %s**: %s\n\n", strings.ToUpper(severity(f.Verdict)), mdEscape(headline(f)))
	sup := suppressedText(f)
	for _, r := range f.Verdict.Reasons {
		fmt.Fprintf(&b, "- %s\n", mdItem(r))
	}
	if sup != "" {
		fmt.Fprintf(&b, "- %s\n", mdItem(sup))
	}
	if len(f.Verdict.Reasons) > 0 || sup != "" {
		b.WriteString("\n")
	}

	if len(f.Devices) > 0 {
		b.WriteString("## Key figures\n\n")
		b.WriteString("| Device | Peak allocated | Peak reserved | Peak used (nvidia-smi) | Capacity | Allocated trend | Time to capacity | External fragmentation (last) |\n")
		b.WriteString("|---|---:|---:|---:|---:|---|---|---:|\n")
		for _, d := range f.Devices {
			fg := deviceFigures(d)
			used, capa := "n/a", "unknown"
			if fg.peakUsed > 0 {
				used = Bytes(fg.peakUsed)
			}
			if fg.capacity > 0 {
				capa = capacityText(d)
			}
			proj := projectionText(fg.trend, lastX(d))
			if proj == "" {
				proj = "n/a"
			}
			alloc, res, frag := Bytes(fg.peakAllocated), Bytes(fg.peakReserved), fmt.Sprintf("%s of %s free", Percent(fg.lastExternal), Bytes(fg.lastInactive))
			if len(d.Points) == 0 {
				frag = "n/a (no snapshots)"
				if d.MemoryStats == nil {
					alloc, res = "n/a", "n/a"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
				mdEscape(DeviceLabel(d.DeviceKey)), alloc, res, used, capa,
				mdEscape(trendText(fg.trend)), mdEscape(proj), frag)
		}
		b.WriteString("\n")
	}

	if procs := growingProcesses(f); len(procs) > 0 {
		b.WriteString("## Processes whose GPU memory grows\n\n")
		for _, r := range procs {
			t := r.p.Trend
			fmt.Fprintf(&b, "- %s on %s: %s, %s; peak %s, last %s (%d readings, nvidia-smi)\n",
				mdCode(processLabel(r.p)), mdEscape(r.where()), mdEscape(RateCI(t.Slope, t.Lo, t.Hi, t.Per)), mdEscape(PValue(t.PValue)),
				Bytes(r.p.Peak), Bytes(r.p.Last), len(r.p.Used))
		}
		b.WriteString("\n")
	}

	sus := topSuspects(f)
	if len(sus) > 0 {
		b.WriteString("## Top leak suspects\n\n")
		b.WriteString("| # | Site | Function | Device | Growth | Live at end | Fingerprint |\n")
		b.WriteString("|---:|---|---|---|---|---:|---|\n")
		for i, r := range sus {
			if i == maxMarkdownSuspects {
				break
			}
			last := int64(0)
			if n := len(r.s.Bytes); n > 0 {
				last = r.s.Bytes[n-1]
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s, %s | %s | %s |\n", i+1,
				mdCode(r.s.Site), mdCode(r.s.Function), mdEscape(DeviceLabel(r.dev.DeviceKey)),
				mdEscape(RateCI(r.s.Trend.Slope, r.s.Trend.Lo, r.s.Trend.Hi, r.s.Trend.Per)), mdEscape(PValue(r.s.Trend.PValue)),
				Bytes(last), mdCode(r.s.Fingerprint))
		}
		if len(sus) > maxMarkdownSuspects {
			fmt.Fprintf(&b, "\n%d more suspects in the HTML report.\n", len(sus)-maxMarkdownSuspects)
		}
		b.WriteString("\n")
	}

	statsOOMs := 0
	for _, d := range f.Devices {
		if d.MemoryStats != nil {
			statsOOMs += len(d.MemoryStats.OOMs)
		}
	}
	if len(f.OOMs) > 0 || statsOOMs > 0 {
		b.WriteString("## Out of memory\n\n")
		for _, o := range f.OOMs {
			fmt.Fprintf(&b, "- %s, %s: %s (request %s; reserved %s, allocated %s, cached free %s, largest free block %s)\n",
				mdCode(o.Path), mdEscape(DeviceLabel(analyze.DeviceKey{Rank: o.Rank, Device: o.Device})), mdEscape(o.Explanation),
				oomBytes(o.Requested), oomBytes(o.Reserved), oomBytes(o.Allocated), oomBytes(o.CachedFree), oomBytes(o.LargestFree))
		}
		for _, d := range f.Devices {
			if m := d.MemoryStats; m != nil {
				for _, o := range m.OOMs {
					fmt.Fprintf(&b, "- %s (torch.cuda.memory_stats): %s\n", mdEscape(DeviceLabel(d.DeviceKey)), mdEscape(statsOOMText(m, o)))
				}
			}
		}
		b.WriteString("\n")
	}

	if next := nextSteps(f); len(next) > 0 {
		b.WriteString("## What to try next\n\n")
		for _, n := range next {
			fmt.Fprintf(&b, "- %s\n", n)
		}
		b.WriteString("\n")
	}

	if sk := f.Inputs.Skipped; len(sk) > 0 {
		b.WriteString("## Skipped inputs\n\n")
		for i, s := range sk {
			if i == maxMarkdownSkipped {
				fmt.Fprintf(&b, "- and %d more (summary.json lists them all)\n", len(sk)-i)
				break
			}
			fmt.Fprintf(&b, "- %s: %s\n", mdCode(s.Path), mdEscape(s.Reason))
		}
		b.WriteString("\n")
	}

	if len(f.Notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range f.Notes {
			fmt.Fprintf(&b, "- %s\n", mdItem(n))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "_%s; generated by gpureport %s at %s. Full report: index.html, report.xlsx, summary.json._\n",
		mdEscape(inputsText(f)), mdEscape(opt.Version), Timestamp(opt.GeneratedAt))
	return b.Bytes()
}

// nextSteps lists what to try next, in Markdown, each tied to a finding:
// the analysis' OOM recommendations, then one line per raised flag.
func nextSteps(f *analyze.Findings) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range f.OOMs {
		for _, r := range o.Recommendations {
			if seen[r.Setting] {
				continue
			}
			seen[r.Setting] = true
			out = append(out, fmt.Sprintf("%s: %s", mdCode(r.Setting), mdEscape(r.Evidence)))
		}
	}
	if sus := topSuspects(f); len(sus) > 0 && f.Verdict.Leak {
		s := sus[0].s
		out = append(out, fmt.Sprintf("Look at %s in %s: tensors allocated there stay alive across steps. Check for tensors kept in lists, dicts, caches or closures, and for losses or outputs accumulated without `.item()` or `.detach()`.",
			mdCode(s.Site), mdCode(s.Function)))
	}
	if f.Verdict.Leak && len(topSuspects(f)) == 0 && statsLeak(f) {
		out = append(out, "The leak was seen in `torch.cuda.memory_stats()` readings only, which cannot say where: record snapshots to find the site. Call `torch.cuda.memory._record_memory_history(max_entries=100000)` before training and `torch.cuda.memory._dump_snapshot(f\"snapshot_step_{step}.pickle\")` every few hundred steps, then run gpureport on the folder again.")
	}
	if f.Verdict.OutsideAllocatorLeak {
		out = append(out, "Memory outside the PyTorch caching allocator grows (NCCL buffers, cuBLAS/cuDNN workspaces, other processes, `cudaMalloc` from extensions): compare per-process usage in nvidia-smi and the non-PyTorch series in the report.")
	}
	if f.Verdict.Fragmentation && !seen["expandable_segments:True"] {
		out = append(out, "Fragmentation: try `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`, which lets segments grow instead of leaving unusable holes.")
	}
	return out
}

// statsLeak reports whether a device without snapshots has a growing
// allocated trend fitted on memory_stats readings.
func statsLeak(f *analyze.Findings) bool {
	for _, d := range f.Devices {
		if t := trendOf(d, analyze.MetricAllocated); len(d.Points) == 0 && t != nil && t.Source == analyze.SourceMemoryStats && t.Verdict == analyze.VerdictGrowing {
			return true
		}
	}
	return false
}

// mdEscape escapes text for Markdown so that untrusted text renders as
// itself when pasted into GitHub or Jira, with as few escapes as that
// takes (a pasted report full of backslashes and &lt; reads badly, and
// Jira shows them literally): only a character that would start markup
// where it stands gets a backslash. That is a backtick, '*', '[', '|'
// (a table cell), '\\' before punctuation, '~' (GitHub's strikethrough),
// '_' at a word's edge (GitHub and Jira ignore it inside words such as
// train_step), '<' that would open a tag or autolink, '&' that would
// start an entity. Control characters are replaced. Text that starts a
// list item goes through mdItem, which also guards the item's start.
func mdEscape(s string) string {
	s = cleanText(s)
	rs := []rune(s)
	isWord := func(i int) bool {
		if i < 0 || i >= len(rs) {
			return false
		}
		r := rs[i]
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	var b strings.Builder
	for i, r := range rs {
		esc := false
		switch r {
		case '`', '*', '[', '|', '~':
			esc = true
		case '\\':
			esc = i+1 < len(rs) && unicode.IsPunct(rs[i+1]) || i+1 < len(rs) && unicode.IsSymbol(rs[i+1])
		case '_':
			esc = !isWord(i-1) || !isWord(i+1)
		case '<':
			esc = i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || strings.ContainsRune("/!?", rs[i+1]))
		case '&':
			esc = i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || rs[i+1] == '#')
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdItem is mdEscape for the text of a list item: a '#', '>', '+' or '-'
// at its start would open a heading, quote or nested list inside it.
func mdItem(s string) string {
	e := mdEscape(s)
	if e != "" && strings.ContainsRune("#>+-", rune(e[0])) {
		return "\\" + e
	}
	return e
}

// mdCode renders untrusted text as an inline code span. Backticks and
// pipes (which end a table cell even in code) are replaced.
func mdCode(s string) string {
	if s == "" {
		return "n/a"
	}
	s = cleanText(s)
	s = strings.ReplaceAll(s, "`", "'")
	s = strings.ReplaceAll(s, "|", "¦")
	return "`" + s + "`"
}
