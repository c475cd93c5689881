package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"gpureport/ingest"
	"gpureport/internal/units"
)

// progress reports long work on stderr: a redrawn bar on a terminal, and
// on anything else (cron logs) a plain line at most every few seconds plus
// one at the end.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	label    string
	last     time.Time
	interval time.Duration
	drawn    bool
	// began is when the current load started, for its throughput.
	began time.Time
}

// newProgress makes a progress reporter writing to w; quiet silences it.
func newProgress(w io.Writer, quiet bool) *progress {
	return &progress{w: w, tty: isTerminal(w), quiet: quiet, interval: 5 * time.Second}
}

// isTerminal reports whether w is a terminal. It asks the terminal
// driver (golang.org/x/term) rather than testing for a character device,
// which /dev/null also is: `gpureport ... 2>/dev/null` must not draw bars.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// start begins a new phase with a label such as "reading run42".
func (p *progress) start(label string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.label = label
	p.last = time.Time{}
}

// update reports done of total items, the latest being item.
func (p *progress) update(done, total int, item string) {
	if p == nil || p.quiet || total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.tty {
		p.drawBar(done, total, item)
		return
	}
	if done == total || now.Sub(p.last) >= p.interval {
		fmt.Fprintf(p.w, "%s: %d/%d files read\n", p.label, done, total)
		p.last = now
	}
}

// drawBar redraws the terminal bar; the caller holds p.mu.
func (p *progress) drawBar(done, total int, item string) {
	const width = 24
	fill := width * min(done, total) / total
	bar := strings.Repeat("#", fill) + strings.Repeat(".", width-fill)
	if len(item) > 40 {
		item = "..." + item[len(item)-37:]
	}
	fmt.Fprintf(p.w, "\r\033[K%s [%s] %d/%d %s", p.label, bar, done, total, item)
	p.drawn = true
}

// finish clears the bar on a terminal.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// step reports that done of total items (runs of a batch) are finished,
// the latest being item: a redrawn bar on a terminal; elsewhere line, when
// not empty, on a line of its own.
func (p *progress) step(done, total int, item, line string) {
	if p == nil || p.quiet || total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		p.drawBar(done, total, item)
		return
	}
	if line != "" {
		fmt.Fprintf(p.w, "%s [%d/%d] %s\n", p.label, done, total, line)
	}
}

// updateLoad reports a run's loading: files and bytes read, the throughput
// and the time left on a terminal (redrawn at most every loadRedraw, and
// at once for the first call so a long run shows it started); on anything
// else a plain line every interval and one at the end.
func (p *progress) updateLoad(lp ingest.LoadProgress) {
	if p == nil || p.quiet || lp.Total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if lp.Done == 0 {
		p.began = now
	}
	elapsed := now.Sub(p.began)
	rate := 0.0 // bytes per second
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(lp.DoneBytes) / s
	}
	figures := fmt.Sprintf("%d/%d files, %s of %s", lp.Done, lp.Total, units.Bytes(lp.DoneBytes), units.Bytes(lp.TotalBytes))
	if lp.Cached > 0 {
		figures += fmt.Sprintf(" (%d cached)", lp.Cached)
	}
	if rate > 0 && lp.Done > 0 {
		figures += fmt.Sprintf(", %s/s", units.Bytes(int64(rate)))
		if left := lp.TotalBytes - lp.DoneBytes; left > 0 {
			figures += ", ETA " + time.Duration(float64(left)/rate*float64(time.Second)).Round(time.Second).String()
		}
	}
	if p.tty {
		if lp.Done != lp.Total && lp.Done != 0 && now.Sub(p.last) < loadRedraw {
			return
		}
		p.last = now
		const width = 24
		fill := width * lp.Done / lp.Total
		fmt.Fprintf(p.w, "\r\033[K%s [%s%s] %s", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), figures)
		p.drawn = true
		return
	}
	if lp.Done == 0 {
		return
	}
	if lp.Done == lp.Total || now.Sub(p.last) >= p.interval {
		fmt.Fprintf(p.w, "%s: %s\n", p.label, figures)
		p.last = now
	}
}

// loadRedraw is how often the terminal bar is redrawn while loading: ten
// times a second is smooth to the eye and costs nothing next to decoding.
const loadRedraw = 100 * time.Millisecond
