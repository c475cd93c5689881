package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// newLogger returns the diagnostics logger writing to w at level: plain
// sentences on a terminal ("warning: skipped input run/x.csv: not a GPU
// log"), which read like the rest of the output, and slog's key=value
// lines otherwise, which a cron log or a grep can take apart.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	if isTerminal(w) {
		return slog.New(&plainHandler{w: w, level: level, mu: &sync.Mutex{}})
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// plainHandler is a slog.Handler that writes one plain line per record:
// the level in words, the message, the file it is about, then the reason
// and any other attributes.
type plainHandler struct {
	w     io.Writer
	level slog.Level
	attrs []slog.Attr
	mu    *sync.Mutex
}

func (h *plainHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *plainHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr{}, h.attrs...), as...)
	return &c
}

// WithGroup flattens groups: a plain line has no room for nesting.
func (h *plainHandler) WithGroup(string) slog.Handler { return h }

func (h *plainHandler) Handle(_ context.Context, r slog.Record) error {
	var where, why, rest []string
	add := func(a slog.Attr) bool {
		v := a.Value.Resolve().String()
		switch a.Key {
		case "file", "path", "dir", "run":
			where = append(where, v)
		case "reason", "err", "error":
			why = append(why, v)
		default:
			rest = append(rest, a.Key+" "+v)
		}
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	var b strings.Builder
	b.WriteString(levelWord(r.Level))
	b.WriteString(": ")
	b.WriteString(r.Message)
	if len(where) > 0 {
		b.WriteString(" " + strings.Join(where, " "))
	}
	if len(why) > 0 {
		b.WriteString(": " + strings.Join(why, "; "))
	}
	if len(rest) > 0 {
		b.WriteString(" (" + strings.Join(rest, ", ") + ")")
	}
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

// levelWord names a level for a person: "warning", not "WARN".
func levelWord(l slog.Level) string {
	switch {
	case l >= slog.LevelError:
		return "error"
	case l >= slog.LevelWarn:
		return "warning"
	case l >= slog.LevelInfo:
		return "info"
	}
	return "debug"
}
