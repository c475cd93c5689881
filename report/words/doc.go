// Package words composes every sentence a report shows from the typed
// Findings of package analyze, so that the terminal, the HTML page, the
// workbook, summary.md and summary.json say the same thing in the same
// words. The analysis decides (kinds, devices, figures, the setting to
// change); this package only words what it decided, with the figures
// formatted by internal/units. It never decides anything the Findings do
// not hold, and it reads nothing but the Findings.
//
// One file per topic; each exported function words one kind of finding,
// and a new finding gets its sentences in the file of its topic (or a new
// file), switching on its kind:
//
//	sentence.go       Sentence: text with code parts (settings, calls, sites)
//	names.go          names of devices, readings, processes, metrics, axes, orders
//	trend.go          a trend, the rule that decided it, its projection and basis
//	verdict.go        the headline and the reasons behind the verdict's flags
//	leak.go           leak suspects: their evidence, claim and one-line summary
//	oom.go            OOM explanations, the verdict's OOM lines, recommendations
//	fragmentation.go  why a device is (not) fragmented
//	outside.go        memory outside the caching allocator, and whose it is
//	memstats.go       torch.cuda.memory_stats readings: OOMs, retries, summary
//	ranks.go          the comparison of ranks
//	coverage.go       stack coverage and incomplete trace windows
//	notes.go          the caveats under the verdict, folded across devices
//	nextsteps.go      what to try next
//	methods.go        the terms a report uses and the thresholds it applied
//	processes.go      processes whose memory grows
//	capture.go        the capture kit's manifests; an OOM no snapshot was taken at
//	placement.go      the GPU join and its evidence, clock offsets, what placement assumed
//
// To give a new finding its words: in package analyze, give it a kind
// (a ReasonKind, NoteKind, EvidenceKind, StepKind, OOMCause, a rule...)
// and, as typed fields, the figures its sentence needs; here, add the
// case of that kind to the function of its topic (Reason, Note,
// Evidence, NextStep, Explanation...) or a file for a new topic, and pin
// the sentence in words_test.go. The writers then show it everywhere.
//
// Untrusted text (paths, frames, process names) is put in as it is; each
// writer escapes what it prints.
package words
