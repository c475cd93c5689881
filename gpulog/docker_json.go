package gpulog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Docker's json-file logging driver stores a container's output as one
// JSON object per line (/var/lib/docker/containers/<id>/<id>-json.log):
//
//	{"log":"0, 1000 MiB, 81920 MiB\n","stream":"stdout","time":"2024-05-01T12:00:00.123456789Z"}
//
// "log" is the text written, with its newline; a line longer than
// Docker's buffer (16 KiB) is split over several objects, only the last
// ending in "\n". ReadLog and SniffLog read such a file as `docker logs
// --timestamps` prints it: each line of text after its RFC 3339 time,
// which the collector prefix reader (gpulog_prefix.go) then removes and
// keeps as the time of readings without one. An object that is not
// Docker's is passed on as it is.

// dockerRecord is one json-file object.
type dockerRecord struct {
	Log    *string `json:"log"`
	Stream string  `json:"stream"`
	Time   string  `json:"time"`
}

// isDockerJSONLine reports whether a line is a json-file object: "log"
// text and a stream.
func isDockerJSONLine(line []byte) (dockerRecord, bool) {
	line = bytes.TrimSpace(line)
	var r dockerRecord
	if len(line) == 0 || line[0] != '{' || !bytes.Contains(line, []byte(`"log"`)) {
		return r, false
	}
	if err := json.Unmarshal(line, &r); err != nil || r.Log == nil || r.Stream == "" {
		return r, false
	}
	return r, true
}

// looksLikeDockerJSON reports whether head (text) starts with a json-file
// object.
func looksLikeDockerJSON(head []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), []byte("\n"))
	_, ok := isDockerJSONLine(line)
	return ok
}

// dockerUnwrapper writes the text of json-file objects, each line after its
// time (see above).
type dockerUnwrapper struct {
	// midLine is true while a split line continues in the next object.
	midLine bool
}

// unwrap returns the text of one json-file line.
func (d *dockerUnwrapper) unwrap(line []byte) []byte {
	r, ok := isDockerJSONLine(line)
	if !ok {
		d.midLine = false
		return line
	}
	text := strings.ReplaceAll(*r.Log, "\r\n", "\n")
	var out []byte
	for text != "" {
		part, rest, nl := strings.Cut(text, "\n")
		if !d.midLine && r.Time != "" {
			out = append(out, r.Time...)
			out = append(out, ' ')
		}
		out = append(out, part...)
		if nl {
			out = append(out, '\n')
		}
		d.midLine = !nl
		text = rest
	}
	return out
}

// dockerJSONText unwraps a head of json-file lines (for sniffing).
func dockerJSONText(head []byte) []byte {
	var d dockerUnwrapper
	var out []byte
	for len(head) > 0 {
		line, rest, found := bytes.Cut(head, []byte("\n"))
		if !found {
			// Cut by the end of the head: not a whole object.
			break
		}
		out = append(out, d.unwrap(line)...)
		head = rest
	}
	return out
}

// dockerJSONReader reads a json-file log as text (see above).
type dockerJSONReader struct {
	br      *bufio.Reader
	d       dockerUnwrapper
	pending []byte
	// long is true while the rest of a line over maxLineBytes passes
	// through as it is read, never held whole.
	long bool
	err  error
}

func (r *dockerJSONReader) Read(b []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.long {
			// pending is br's buffer until it is copied out, before br
			// is read again.
			chunk, err := r.br.ReadSlice('\n')
			if !errors.Is(err, bufio.ErrBufferFull) {
				r.long, r.err = false, err
			}
			r.pending = chunk
			continue
		}
		r.pending = r.line()
	}
	n := copy(b, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// line reads the next object and returns its text; a line over
// maxLineBytes (no object the json-file driver writes: it splits a log
// line at 16 KiB) is returned as it is, as far as it is read, and its
// rest passes through (long), left to the line reader to skip as
// over-long: at most maxLineBytes of it is held.
func (r *dockerJSONReader) line() []byte {
	var line []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(line) > maxLineBytes {
				r.long = true
				return line
			}
			continue
		}
		if err != nil {
			r.err = err
		}
		if len(line) > maxLineBytes {
			return line
		}
		return r.d.unwrap(line)
	}
}
