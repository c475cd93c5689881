package gpulog

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

// A job's output is often saved inside a JSON container rather than as
// the text it printed:
//
//   - Docker's json-file driver: one object per line, the text in "log"
//     (docker_json.go);
//   - a Jupyter notebook saved with its outputs (nbformat 4): each code
//     cell's "outputs", "stream" outputs with their "text" and "error"
//     outputs with "ename", "evalue" and the ANSI-coloured "traceback";
//     or an IPython 1-2 notebook (nbformat 3: jupyter/nbformat's
//     v3/nbbase.py), whose cells are in "worksheets"[]."cells", each code
//     cell with its "input" and "prompt_number", and whose error outputs
//     are "pyerr";
//   - `gcloud logging read --format=json`: an array of LogEntry objects,
//     the line in "textPayload" (or "jsonPayload"."message"), its time in
//     "timestamp", newest first; a Kubernetes container's entry names its
//     pod and container in "resource"."labels";
//   - `aws logs filter-log-events` (or get-log-events) --output json:
//     {"events": [{"timestamp": ms, "message": "..."}, ...]}.
//
// Unwrapping is one step before every reader (ReadLog, SniffTrainingLog,
// SniffLogWith): the readers get the text the job wrote, one line per
// line of it, each after its time when the container gives one
// (RFC 3339, as `docker logs -t` and `kubectl logs --timestamps` print
// it), in time order, and a Kubernetes entry after its pod as `kubectl
// logs --prefix` prints it ("[pod/NAME/CONTAINER] "), so that one pod's
// lines are told from another's. Docker's objects are unwrapped as they
// stream; the other containers are whole JSON documents, decoded whole
// (up to maxWrappedBytes, or ReadOptions.MaxDocumentBytes). Line numbers then count the unwrapped lines.

// Wrapper names a JSON container that holds a log's lines; "" for none.
type Wrapper string

// The containers unwrapped (see above).
const (
	WrapperNone       Wrapper = ""
	WrapperDocker     Wrapper = "Docker json-file log"
	WrapperNotebook   Wrapper = "Jupyter notebook"
	WrapperGCPLogging Wrapper = "Google Cloud Logging export (gcloud logging read --format=json)"
	WrapperCloudWatch Wrapper = "AWS CloudWatch Logs export (aws logs filter-log-events)"
)

// maxWrappedBytes bounds a JSON document that is decoded whole to unwrap
// it: it is held in memory with its decoded text. A notebook with its
// plots embedded is tens of MB and an export of a day of a verbose job's
// log about 100 MB; a larger document is read as the text it is (its
// lines are JSON, which the readers pass over), with a note.
const maxWrappedBytes = 256 << 20

// streamWrapped reports whether w is unwrapped line by line, as it
// streams (Docker's objects), rather than decoded whole.
func (w Wrapper) streamWrapped() bool { return w == WrapperDocker }

// SniffWrapper tells from the start of a file (its first few KiB, as
// text) which JSON container, if any, holds its lines: Docker's objects
// by a whole first object, the documents by their first keys (a notebook
// by "cells" or "nbformat", a Cloud Logging export by the first entry's
// LogEntry fields, a CloudWatch export by "events" holding objects with
// "message" and "timestamp"), which the end of the head may cut.
func SniffWrapper(head []byte) Wrapper {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if looksLikeDockerJSON(head) {
		return WrapperDocker
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return WrapperNone
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	switch tok, _ := dec.Token(); tok {
	case json.Delim('['):
		if tok, _ := dec.Token(); tok == json.Delim('{') && logEntryKeys(dec) {
			return WrapperGCPLogging
		}
	case json.Delim('{'):
		return sniffDocumentObject(dec)
	}
	return WrapperNone
}

// sniffDocumentObject reads the first keys of a top-level object (dec
// just past its '{'): a notebook's or a CloudWatch export's.
func sniffDocumentObject(dec *json.Decoder) Wrapper {
	for range 8 {
		key, ok := nextKey(dec)
		if !ok {
			return WrapperNone
		}
		switch key {
		case "cells":
			if tok, _ := dec.Token(); tok == json.Delim('[') {
				return WrapperNotebook
			}
			return WrapperNone
		case "nbformat":
			var v float64
			if dec.Decode(&v) == nil && v >= 3 {
				return WrapperNotebook
			}
			return WrapperNone
		case "worksheets":
			// nbformat 3's cells, after its "metadata" and "nbformat"
			// (or first, in a writer's own order).
			if tok, _ := dec.Token(); tok == json.Delim('[') {
				return WrapperNotebook
			}
			return WrapperNone
		case "events":
			if tok, _ := dec.Token(); tok != json.Delim('[') {
				return WrapperNone
			}
			if tok, _ := dec.Token(); tok == json.Delim('{') && cloudWatchKeys(dec) {
				return WrapperCloudWatch
			}
			return WrapperNone
		case "metadata", "nbformat_minor", "searchedLogStreams", "nextToken", "nextForwardToken", "nextBackwardToken":
			// Keys that come before the telling one in some writers'
			// order (Colab writes "nbformat" and "metadata" first).
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return WrapperNone
			}
		default:
			return WrapperNone
		}
	}
	return WrapperNone
}

// nextKey reads the next key of an object, false at its end or at the
// end of the head.
func nextKey(dec *json.Decoder) (string, bool) {
	tok, err := dec.Token()
	if err != nil {
		return "", false
	}
	k, ok := tok.(string)
	return k, ok
}

// logEntryFields are the fields of Cloud Logging's LogEntry
// (cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry);
// logEntryTelling those that no other JSON array of objects is likely to
// hold.
var (
	logEntryFields = []string{"logName", "resource", "protoPayload", "textPayload", "jsonPayload", "timestamp",
		"receiveTimestamp", "severity", "insertId", "httpRequest", "labels", "operation", "trace", "spanId",
		"traceSampled", "sourceLocation", "split", "errorGroups", "apphub", "apphubDestination", "apphubSource"}
	logEntryTelling = []string{"logName", "insertId", "textPayload", "jsonPayload", "protoPayload", "receiveTimestamp"}
)

// logEntryKeys reads the keys of an array's first object (dec just past
// its '{') and reports whether they are a LogEntry's: all LogEntry
// fields, two of them at least, one of them telling.
func logEntryKeys(dec *json.Decoder) bool {
	return objectKeys(dec, logEntryFields, logEntryTelling)
}

// cloudWatchFields are the fields of a CloudWatch Logs event
// (FilteredLogEvent and OutputLogEvent).
var cloudWatchFields = []string{"logStreamName", "timestamp", "message", "ingestionTime", "eventId"}

func cloudWatchKeys(dec *json.Decoder) bool {
	return objectKeys(dec, cloudWatchFields, []string{"message"})
}

// objectKeys reads an object's keys (dec just past its '{'), until its
// end or the end of the head, and reports whether every one is in fields,
// there are two at least and one is in telling.
func objectKeys(dec *json.Decoder, fields, telling []string) bool {
	n, tells := 0, false
	for {
		key, ok := nextKey(dec)
		if !ok {
			break
		}
		if !slices.Contains(fields, key) {
			return false
		}
		n++
		tells = tells || slices.Contains(telling, key)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return n >= 2 && tells
}

// ErrNotUnwrapped is wrapped by ReadLog's error for a JSON document
// holding a log (a notebook, a log export) that could not be unwrapped
// (cut short, or over ReadOptions.MaxDocumentBytes) and in whose text,
// read as it stands, no line gave a reading.
var ErrNotUnwrapped = errors.New("could not be unwrapped")

// unwrapped returns a reader of the text the container w holds, read
// from br (the file's text from its start), and the note that says so;
// a document that does not decode as w, or is over limit bytes (0:
// maxWrappedBytes), is read as it stands (the reader gives its bytes),
// with a note saying why, and failed. w is not WrapperNone.
func unwrapped(br *bufio.Reader, w Wrapper, limit int64) (r io.Reader, note string, failed bool) {
	if w.streamWrapped() {
		return &dockerJSONReader{br: br}, "every line is a Docker json-file object: its \"log\" text is read, at the object's \"time\" where a reading has no time of its own", false
	}
	if limit <= 0 {
		limit = maxWrappedBytes
	}
	doc, err := io.ReadAll(io.LimitReader(br, limit+1))
	if err == nil && int64(len(doc)) > limit {
		err = fmt.Errorf("over %s, the most gpureport decodes whole", sizeText(limit))
	}
	var text []byte
	var timed bool
	if err == nil {
		text, timed, err = unwrapDocument(doc, w)
	}
	if err != nil {
		return io.MultiReader(bytes.NewReader(doc), br), fmt.Sprintf("the file starts as a %s but %v (%v): read as the text it is", w, ErrNotUnwrapped, err), true
	}
	note = fmt.Sprintf("the file is a %s: the text it holds is read, one line per line of it", w)
	if timed {
		note += ", in time order, each at the time the export gives it"
	}
	return bytes.NewReader(text), note + " (line numbers count those lines)", false
}

// sizeText is a size limit's text: "256 MiB", "1 KiB", "100 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// unwrapDocument decodes a whole document of container w into the text it
// holds, and whether its lines carry times.
func unwrapDocument(doc []byte, w Wrapper) ([]byte, bool, error) {
	switch w {
	case WrapperNotebook:
		text, err := notebookText(doc)
		return text, false, err
	case WrapperGCPLogging:
		text, err := gcpLoggingText(doc)
		return text, true, err
	case WrapperCloudWatch:
		text, err := cloudWatchText(doc)
		return text, true, err
	}
	return nil, false, fmt.Errorf("unknown container %q", w)
}

// multiText is a notebook's multiline string: one string, or a list of
// strings joined as written (nbformat's "multiline_string").
type multiText string

func (m *multiText) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiText(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	*m = multiText(strings.Join(parts, ""))
	return nil
}

// notebook is what gpureport reads of an nbformat 4 notebook
// (jupyter/nbformat, nbformat/v4/nbformat.v4.schema.json), or of an
// nbformat 3 one (nbformat/v3/nbbase.py), whose cells are in worksheets.
type notebook struct {
	NBFormat   *int             `json:"nbformat"`
	Cells      []notebookCell   `json:"cells"`
	Worksheets []notebookSheets `json:"worksheets"`
}

// notebookSheets is an nbformat 3 worksheet.
type notebookSheets struct {
	Cells []notebookCell `json:"cells"`
}

// notebookCell is a cell with its outputs: "stream" text, and "error"
// (nbformat 4) or "pyerr" (nbformat 3) with the same fields.
type notebookCell struct {
	Outputs []struct {
		OutputType string    `json:"output_type"`
		Text       multiText `json:"text"`
		EName      string    `json:"ename"`
		EValue     string    `json:"evalue"`
		Traceback  []string  `json:"traceback"`
	} `json:"outputs"`
}

// notebookText is the text of a notebook's outputs, cell after cell: the
// stream outputs' text and the errors' tracebacks (each entry of
// "traceback" is one or more lines), followed by "ename: evalue" when the
// traceback does not end with it (an error with no traceback kept).
// Source code is not output: an OOM message quoted in a cell's source
// is no OOM.
func notebookText(doc []byte) ([]byte, error) {
	var nb notebook
	if err := json.Unmarshal(doc, &nb); err != nil {
		return nil, fmt.Errorf("notebook: %w", err)
	}
	if nb.NBFormat == nil || *nb.NBFormat < 3 {
		return nil, errors.New("notebook: not nbformat 3 or 4")
	}
	cells := nb.Cells
	if *nb.NBFormat == 3 {
		for _, w := range nb.Worksheets {
			cells = append(cells, w.Cells...)
		}
	}
	var out bytes.Buffer
	line := func(s string) {
		out.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			out.WriteByte('\n')
		}
	}
	for _, c := range cells {
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "stream":
				if o.Text != "" {
					line(string(o.Text))
				}
			case "error", "pyerr":
				var tb strings.Builder
				for _, t := range o.Traceback {
					line(t)
					tb.WriteString(t)
				}
				first, _, _ := strings.Cut(o.EValue, "\n")
				if o.EName != "" && !strings.Contains(visibleText(tb.String()), strings.TrimSpace(first)) {
					line(o.EName + ": " + o.EValue)
				}
			}
		}
	}
	return out.Bytes(), nil
}

// stampedLine is one exported log line and its time (zero when none).
type stampedLine struct {
	t    time.Time
	head string
	text string
	// at is the time the line is ordered by: t, or for a line without
	// one the time of the line before it in the export.
	at time.Time
}

// writeStamped writes exported lines in time order: a line without a time
// keeps its place after the line before it in the export, and is written
// without a time. Each line of a multi-line message is written after the
// message's head and time.
func writeStamped(lines []stampedLine) []byte {
	var last time.Time
	for i := range lines {
		if !lines[i].t.IsZero() {
			last = lines[i].t
		}
		lines[i].at = last
	}
	slices.SortStableFunc(lines, func(a, b stampedLine) int { return a.at.Compare(b.at) })
	var out bytes.Buffer
	for _, l := range lines {
		text := strings.TrimSuffix(strings.ReplaceAll(l.text, "\r\n", "\n"), "\n")
		for part := range strings.SplitSeq(text, "\n") {
			out.WriteString(l.head)
			if !l.t.IsZero() {
				out.WriteString(l.t.UTC().Format(time.RFC3339Nano))
				out.WriteByte(' ')
			}
			out.WriteString(part)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// logEntry is what gpureport reads of a Cloud Logging LogEntry.
type logEntry struct {
	TextPayload *string `json:"textPayload"`
	JSONPayload *struct {
		Message *string `json:"message"`
	} `json:"jsonPayload"`
	Timestamp        string `json:"timestamp"`
	ReceiveTimestamp string `json:"receiveTimestamp"`
	Resource         struct {
		Labels struct {
			Pod       string `json:"pod_name"`
			Container string `json:"container_name"`
		} `json:"labels"`
	} `json:"resource"`
}

// gcpLoggingText is the text of a Cloud Logging export's entries, oldest
// first (gcloud lists the newest first). An entry without text (an audit
// log's protoPayload, a structured entry without "message") is passed
// over.
func gcpLoggingText(doc []byte) ([]byte, error) {
	var entries []logEntry
	if err := json.Unmarshal(doc, &entries); err != nil {
		return nil, fmt.Errorf("log entries: %w", err)
	}
	lines := make([]stampedLine, 0, len(entries))
	for _, e := range entries {
		var text string
		switch {
		case e.TextPayload != nil:
			text = *e.TextPayload
		case e.JSONPayload != nil && e.JSONPayload.Message != nil:
			text = *e.JSONPayload.Message
		default:
			continue
		}
		l := stampedLine{text: text}
		for _, s := range []string{e.Timestamp, e.ReceiveTimestamp} {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				l.t = t
				break
			}
		}
		if p := e.Resource.Labels; p.Pod != "" {
			// kubectl logs --prefix's label: one pod is one machine's
			// process, told from another pod's.
			l.head = "[pod/" + p.Pod + "/" + cmp.Or(p.Container, "container") + "] "
		}
		lines = append(lines, l)
	}
	return writeStamped(lines), nil
}

// cloudWatchExport is what gpureport reads of a CloudWatch Logs export.
type cloudWatchExport struct {
	Events *[]struct {
		Stream    string `json:"logStreamName"`
		Timestamp *int64 `json:"timestamp"`
		Message   string `json:"message"`
	} `json:"events"`
}

// reStreamUnsafe is what a log stream's name holds that a host label
// (pdsh's "host: ", trainlog_prefix.go) cannot.
var reStreamUnsafe = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// streamLabel is a CloudWatch log stream's name as a host label: its last
// path element (SageMaker names a host's stream JOB/algo-N-EPOCH), made
// of the characters a host label allows; "" when nothing is left.
func streamLabel(stream string) string {
	s := stream[strings.LastIndexByte(stream, '/')+1:]
	s = strings.Trim(reStreamUnsafe.ReplaceAllString(s, "-"), "-_.")
	if len(s) > 63 {
		s = s[:63]
	}
	return s
}

// cloudWatchText is the text of a CloudWatch export's events, in time
// order (filter-log-events interleaves its streams by time; the sort
// keeps that).
func cloudWatchText(doc []byte) ([]byte, error) {
	var x cloudWatchExport
	if err := json.Unmarshal(doc, &x); err != nil {
		return nil, fmt.Errorf("log events: %w", err)
	}
	if x.Events == nil {
		return nil, errors.New("log events: no \"events\"")
	}
	// Events of several streams (one per host: SageMaker, a cluster's
	// agents) are interleaved by time: each line then goes after its
	// stream's label, before its time, as pdsh labels a host's lines, so that one host's
	// lines are told from another's (their messages' continuation lines,
	// their machines).
	streams := map[string]bool{}
	for _, e := range *x.Events {
		streams[e.Stream] = true
	}
	lines := make([]stampedLine, 0, len(*x.Events))
	for _, e := range *x.Events {
		l := stampedLine{text: e.Message}
		if label := streamLabel(e.Stream); len(streams) > 1 && label != "" {
			l.head = label + ": "
		}
		if e.Timestamp != nil {
			// Milliseconds since the Unix epoch (the AWS CLI prints the
			// API's number as it is).
			l.t = time.UnixMilli(*e.Timestamp)
		}
		lines = append(lines, l)
	}
	return writeStamped(lines), nil
}

// unwrapHead is the text of a head (the first bytes of a file) that a
// streamed container holds (for sniffing); a document container's head
// cannot be unwrapped and is returned as it is.
func unwrapHead(head []byte) []byte {
	if SniffWrapper(head) == WrapperDocker {
		return dockerJSONText(head)
	}
	return head
}
