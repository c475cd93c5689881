package gpulog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// `watch -n 1 nvidia-smi` captured with script(1) (or its output saved
// with tee) is no text of lines: watch draws through curses, which writes
// the first frame in full (after ESC[H ESC[2J), moving the cursor to each
// row (ESC[5d, ESC[7;29H) instead of writing newlines, and every later
// frame as a partial redraw: only the cells that changed, each run after
// a cursor move (ESC[1;95H4 ESC[3;19H4 ESC[12;48H2537). Such a capture is
// read by replaying it on a screen (termScreen) and taking the screen's
// text at the end of each frame; a reader of lines sees that text, each
// frame after the date its title line gives ("Every 1.0s: nvidia-smi
// host: Fri Mar  8 10:00:01 2024"), unless nvidia-smi's own date line is
// on the screen above the table.
//
// A frame ends where curses starts the next: a change at or before the
// cell of the frame's last change (curses updates the screen top to
// bottom, left to right, and the title's clock changes every second).
// A frame is read only while the screen is known, from a full clear on;
// a control sequence the replay does not know could have moved text, so
// from it until the next full clear frames are skipped and counted, never
// guessed. watch wraps a line wider than the terminal onto the next row;
// rows as wide as the terminal are joined with the next before reading.
// Text written outside watch's screen (the rest of a script(1) session:
// a plain nvidia-smi run before or after) is passed on line by line.

// reCursorAddress matches a cursor address to a row below the first
// (ESC[5;1H): curses' redraws have them, a `clear; nvidia-smi` loop's
// plain ESC[H ESC[2J does not.
var reCursorAddress = regexp.MustCompile(`\x1b\[[0-9]*[2-9][0-9]*;[0-9]+H`)

// reWatchTitle matches watch's title line: "Every 1.0s: command".
var reWatchTitle = regexp.MustCompile(`^Every +[0-9]+(?:\.[0-9]+)?s: `)

// looksLikeWatchCapture reports whether head is a curses screen capture
// of watch: cursor addressing and watch's title, or nvidia-smi's banner
// drawn on an alternate screen (watch -t has no title).
func looksLikeWatchCapture(head []byte) bool {
	if bytes.IndexByte(head, 0x1b) < 0 || !reCursorAddress.Match(head) {
		return false
	}
	if bytes.Contains(head, []byte("\x1b[?1049h")) && bytes.Contains(head, []byte("NVIDIA-SMI")) {
		return true
	}
	text := stripTermControl(string(head))
	for _, l := range strings.Split(text, "\n") {
		if reWatchTitle.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

// watchStats counts the frames of a replayed capture.
type watchStats struct {
	frames, skipped int
	// oversized counts the frames left out because the replay's text
	// outgrew the capture maxWatchExpansion-fold (watchReader.frame).
	oversized int
}

// maxWatchExpansion bounds the text a replay writes per byte of capture
// (after its first MiB), in screen cells. A frame is the whole screen's text, ended by a
// redraw of any size: watch redrawing nvidia-smi's clock and memory
// figures writes some 20-150 bytes a second for 2-12 KiB of frame text,
// at most about 200 times its bytes; a capture that redraws one cell of a
// full 1000x1000 screen at a time would expand 100,000-fold and keep the
// readers busy for hours.
const maxWatchExpansion = 1024

// note says what the replay read, "" when it read no frame.
func (s watchStats) note() string {
	if s.frames == 0 && s.skipped == 0 && s.oversized == 0 {
		return ""
	}
	n := fmt.Sprintf("a terminal capture of watch: its screen was replayed and read frame by frame (%s; line numbers count the replayed text's lines)", plural(s.frames, "frame"))
	if s.skipped > 0 {
		n += fmt.Sprintf("; %s skipped: drawn with a control sequence the replay does not know, so their memory figures cannot be recovered", plural(s.skipped, "partial redraw"))
	}
	if s.oversized > 0 {
		n += fmt.Sprintf("; %s left out: their screens' text grew past %d times the capture's bytes (a redraw of a few cells each, faster than watch draws)", plural(s.oversized, "frame"), maxWatchExpansion)
	}
	return n
}

// watchReader reads a watch capture as the text of its frames. A redraw
// of a few bytes ends a frame whose text is the whole screen's, so the
// capture is replayed a byte at a time only until a frame (or a line of
// text) is out: what the reader holds is one frame, never the thousands
// a chunk of redraws can stand for.
type watchReader struct {
	src *bufio.Reader
	scr *termScreen
	out bytes.Buffer
	// chunk holds what was read from src; pending is the part of it not
	// yet replayed. srcDone is true once src ended (or failed); eof once
	// the screen was ended too.
	chunk   [32 << 10]byte
	pending []byte
	srcDone bool
	eof     bool
	stats   *watchStats
	// replayed counts the capture's bytes replayed, written the cells of
	// the frames written (maxWatchExpansion).
	replayed, written int64
}

func newWatchReader(r io.Reader, stats *watchStats) *watchReader {
	w := &watchReader{src: bufio.NewReaderSize(r, 64<<10), stats: stats}
	w.scr = newTermScreen(w.frame, w.textLine)
	return w
}

func (w *watchReader) Read(p []byte) (int, error) {
	for w.out.Len() == 0 && !w.eof {
		switch {
		case len(w.pending) > 0:
			i := 0
			for i < len(w.pending) && w.out.Len() == 0 {
				w.replayed++
				w.scr.byte(w.pending[i])
				i++
			}
			w.pending = w.pending[i:]
		case w.srcDone:
			w.scr.end()
			w.eof = true
		default:
			n, err := w.src.Read(w.chunk[:])
			w.pending = w.chunk[:n]
			w.srcDone = err != nil
		}
	}
	if w.out.Len() == 0 {
		return 0, io.EOF
	}
	return w.out.Read(p)
}

// textLine writes a line of text written outside watch's screen; the
// lines script(1) itself writes around the session ("Script started on
// 2024-03-08 10:00:00+00:00 [COMMAND=...]", "Script done on ...") are no
// output of the session and are left out.
func (w *watchReader) textLine(line string) {
	if strings.HasPrefix(line, "Script started on ") || strings.HasPrefix(line, "Script done on ") {
		return
	}
	w.out.WriteString(line + "\n")
}

// frame writes the text of one finished frame; ok is false for a frame
// drawn on a screen not known. rows are only read, and not kept.
func (w *watchReader) frame(rows [][]rune, width int, ok bool) {
	if !ok {
		w.stats.skipped++
		return
	}
	// A frame's size is counted in cells (a row's and its line end, and
	// room for the date line and blank line frameText adds): what its
	// text is at most, known before the text is made.
	cells := int64(64)
	for _, r := range rows {
		cells += int64(len(r)) + 1
	}
	if w.written+cells > 1<<20+maxWatchExpansion*w.replayed {
		w.stats.oversized++
		return
	}
	w.written += cells
	w.stats.frames++
	w.out.WriteString(frameText(rows, width))
}

// watchText replays a head of a watch capture (for sniffing).
func watchText(head []byte) []byte {
	var st watchStats
	b, _ := io.ReadAll(newWatchReader(bytes.NewReader(head), &st))
	return b
}

// frameText is a frame's screen as lines: watch's title replaced by its
// date line (when nvidia-smi's own date line is not on the screen), table
// lines wrapped at the terminal's width joined, a blank line after.
//
// width is the widest cursor address seen; watch's title, whose clock
// ends in the last column, gives it too. A table wider than the terminal
// shows in its top border ("+---", every cell written) filling the width:
// the rows up to the one that ends the border with '+' are one line, and
// every table line (starting with '|' or '+') spans as many rows, each
// row but the last padded to the width (curses leaves blank cells at a
// row's end unwritten).
func frameText(rows [][]rune, width int) string {
	if len(rows) > 0 && reWatchTitle.MatchString(strings.TrimSpace(string(rows[0]))) {
		width = max(width, len(rows[0]))
	}
	for _, r := range rows {
		if len(r) > width {
			// The width seen is not the terminal's: no row is known to wrap.
			width = 0
		}
	}
	span := 1
	for i, r := range rows {
		if width == 0 || len(r) != width || !strings.HasPrefix(string(r), "+-") || strings.HasSuffix(string(r), "+") {
			continue
		}
		for j := i + 1; j < len(rows) && j-i < maxWrapRows; j++ {
			if strings.HasSuffix(strings.TrimRight(string(rows[j]), " "), "+") {
				span = j - i + 1
				break
			}
		}
		break
	}
	var lines []string
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		if t := string(r); span > 1 && (strings.HasPrefix(t, "|") || strings.HasPrefix(t, "+")) {
			for k := 1; k < span && i+1 < len(rows); k++ {
				i++
				pad := []rune(strings.Repeat(" ", max(width-len(r)%width, 0)))
				if len(r)%width == 0 && len(r) > 0 {
					pad = nil
				}
				r = append(append(r[:len(r):len(r)], pad...), rows[i]...)
			}
		}
		lines = append(lines, strings.TrimRight(string(r), " "))
	}
	var title string
	if len(lines) > 0 && reWatchTitle.MatchString(strings.TrimSpace(lines[0])) {
		title, lines = lines[0], lines[1:]
	}
	dated := false
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if s == "" {
			continue
		}
		if s[0] == '|' || s[0] == '+' {
			break
		}
		if _, _, ok := parseDateLine(s, time.UTC); ok {
			dated = true
			break
		}
	}
	var sb strings.Builder
	if d := titleDate(title); !dated && d != "" {
		sb.WriteString(d + "\n")
	}
	for _, l := range lines {
		sb.WriteString(l + "\n")
	}
	sb.WriteString("\n")
	return sb.String()
}

// titleDate returns the date at the end of watch's title line, as
// ctime(3) prints it ("Fri Mar  8 10:00:01 2024"), "" when there is none
// (a title cut by a narrow terminal).
func titleDate(title string) string {
	f := strings.Fields(title)
	if len(f) < 5 {
		return ""
	}
	d := strings.Join(f[len(f)-5:], " ")
	if _, _, ok := parseDate(d, time.UTC); !ok {
		return ""
	}
	return d
}

// maxScreenRows and maxScreenCols bound the replayed screen: no terminal
// is taller or wider (a 4K display in a 6-pixel font has about 640
// columns), and text past them (a capture of plain text, never scrolled
// because no scroll region was set) cannot grow the grid without bound.
const (
	// maxWrapRows bounds the rows one wrapped table line is looked for
	// over: nvidia-smi's 89-column table on a 10-column terminal.
	maxWrapRows   = 10
	maxScreenRows = 1000
	maxScreenCols = 1000
)

// termScreen replays a terminal byte stream on a grid of cells. Rows grow
// as they are written; no width is assumed beyond the cursor addresses
// seen.
type termScreen struct {
	rows [][]rune
	// r, c is the cursor (0-based); sr, sc the saved cursor.
	r, c, sr, sc int
	// top, bot are the scroll region's rows; bot -1 when the screen's
	// height is unknown (then a line feed never scrolls).
	top, bot int
	// width is the widest cursor address seen (the terminal's width
	// once watch parks the cursor in its last cell).
	width int
	last  rune
	// known is true from a full clear on: the screen holds exactly what
	// the stream drew. bad is true when the current frame used a control
	// sequence not replayed.
	known, bad bool
	// dirty is true when the frame changed the screen; addressed when it
	// moved the cursor by address (a redraw, not plain text). lr, lc is
	// the cell of the frame's last change.
	dirty, addressed bool
	lr, lc           int
	// held is the frame drawn before an unknown sequence, nil when none
	// or when the frame went on after it.
	held [][]rune
	// state of the escape parser: 0 ground, 1 after ESC, 2 in CSI, 3 in
	// OSC, 4 the byte after ESC ( and the like, 5 ESC inside OSC.
	state int
	csi   []byte
	utf   []byte
	emit  func(rows [][]rune, width int, ok bool)
	// plain is the line of text being written outside a known screen
	// (before watch starts, after it ends: the rest of a script(1)
	// session), handed to text at its newline unless it was drawn by
	// cursor address; cr is true after a carriage return, which starts
	// the line again at its next character.
	plain []rune
	cr    bool
	text  func(line string)
}

func newTermScreen(emit func([][]rune, int, bool), text func(string)) *termScreen {
	return &termScreen{bot: -1, lr: -1, lc: -1, emit: emit, text: text}
}

// end finishes the last frame and the last line of plain text.
func (s *termScreen) end() {
	s.endFrame()
	s.endPlain()
}

// endPlain hands over the line of plain text written outside a known
// screen, unless it was drawn by cursor address (a redraw).
func (s *termScreen) endPlain() {
	if len(s.plain) > 0 && !s.known && !s.addressed {
		s.text(string(s.plain))
	}
	s.plain, s.cr = s.plain[:0], false
}

// endFrame hands over the frame drawn since the last one.
func (s *termScreen) endFrame() {
	if s.held != nil {
		// Nothing changed after the unknown sequence: the frame was
		// complete before it.
		s.emit(s.held, s.width, true)
		s.held = nil
		s.dirty = false
	}
	if s.dirty {
		switch {
		case s.known && !s.bad:
			// emit reads the rows at once, keeping nothing of them: no
			// copy of the screen for each frame.
			s.emit(s.rows, s.width, true)
		case s.addressed:
			// A redraw of a screen not known (or known no longer) is a
			// frame that cannot be read; plain text outside the screen
			// (script's "Script started" line) is no frame.
			s.emit(nil, 0, false)
		}
	}
	if s.addressed {
		// Text drawn by address is a redraw's, not a line of text.
		s.plain, s.cr = s.plain[:0], false
	}
	s.dirty, s.addressed = false, false
	s.lr, s.lc = -1, -1
	if s.known {
		s.bad = false
	}
}

// change records a change of the screen at the cursor, ending the frame
// when it comes at or before the frame's last change.
func (s *termScreen) change() {
	if s.dirty && (s.r < s.lr || s.r == s.lr && s.c <= s.lc) {
		s.endFrame()
	}
	if s.held != nil {
		// The frame went on after the unknown sequence: it cannot be read.
		s.held = nil
	}
	s.dirty = true
	s.lr, s.lc = s.r, s.c
}

// taint marks the screen as no longer known. The frame drawn so far is
// kept aside: when the next change starts a new frame, the sequence came
// after it was complete and it is read; when the frame goes on, it is
// skipped with the rest.
func (s *termScreen) taint() {
	if !s.known {
		return
	}
	if s.dirty && !s.bad {
		s.held = s.snapshot()
	}
	s.known = false
	s.bad = true
	s.dirty = true
	s.addressed = true
}

// snapshot copies the screen's rows.
func (s *termScreen) snapshot() [][]rune {
	rows := make([][]rune, len(s.rows))
	for i, r := range s.rows {
		rows[i] = append([]rune(nil), r...)
	}
	return rows
}

func (s *termScreen) row(r int) []rune {
	for len(s.rows) <= r {
		s.rows = append(s.rows, nil)
	}
	return s.rows[r]
}

func (s *termScreen) put(ch rune) {
	if !s.known {
		if s.cr {
			s.plain, s.cr = s.plain[:0], false
		}
		if len(s.plain) < maxScreenCols {
			s.plain = append(s.plain, ch)
		}
	}
	if s.c >= maxScreenCols {
		// Past the last column of any terminal: the cell is lost.
		return
	}
	s.change()
	row := s.row(s.r)
	for len(row) <= s.c {
		row = append(row, ' ')
	}
	row[s.c] = ch
	s.rows[s.r] = row
	s.c++
	s.last = ch
}

// clear empties the screen: what follows is known.
func (s *termScreen) clear() {
	s.endPlain()
	s.endFrame()
	s.rows = nil
	s.known, s.bad = true, false
}

func (s *termScreen) byte(b byte) {
	switch s.state {
	case 1:
		s.escape(b)
		return
	case 2:
		if b >= 0x40 && b <= 0x7e {
			s.state = 0
			s.control(s.csi, b)
			s.csi = s.csi[:0]
			return
		}
		if len(s.csi) < 64 {
			s.csi = append(s.csi, b)
		}
		return
	case 3:
		switch b {
		case 0x07:
			s.state = 0
		case 0x1b:
			s.state = 5
		}
		return
	case 4:
		s.state = 0
		return
	case 5:
		s.state = 0
		return
	}
	switch {
	case b == 0x1b:
		s.utf = s.utf[:0]
		s.state = 1
	case b == '\r':
		s.c = 0
		s.cr = true
	case b == '\n' || b == 0x0b || b == 0x0c:
		if !s.known {
			s.endPlain()
		}
		s.lineFeed()
	case b == '\b':
		s.c = max(s.c-1, 0)
	case b == '\t':
		s.c = min((s.c/8+1)*8, maxScreenCols-1)
	case b < 0x20 || b == 0x7f:
		// BEL, SI, SO, NUL: no cell changes.
	case b < 0x80:
		s.put(rune(b))
	default:
		s.utf = append(s.utf, b)
		if utf8.FullRune(s.utf) {
			r, _ := utf8.DecodeRune(s.utf)
			s.utf = s.utf[:0]
			s.put(r)
		} else if len(s.utf) >= utf8.UTFMax {
			s.utf = s.utf[:0]
			s.put(utf8.RuneError)
		}
	}
}

// escape handles the byte after ESC.
func (s *termScreen) escape(b byte) {
	s.state = 0
	switch b {
	case '[':
		s.state = 2
	case ']', 'P', '_', '^':
		s.state = 3
	case '(', ')', '*', '+', '#', '%':
		s.state = 4
	case '7':
		s.sr, s.sc = s.r, s.c
	case '8':
		s.r, s.c = s.sr, s.sc
	case 'D':
		s.lineFeed()
	case 'E':
		s.c = 0
		s.lineFeed()
	case 'M':
		s.reverseIndex()
	case 'c':
		s.clear()
	case '=', '>', '\\':
		// keypad modes, string terminator: no cell changes.
	default:
		s.taint()
	}
}

func (s *termScreen) lineFeed() {
	switch {
	case s.bot >= 0 && s.r == s.bot:
		s.scrollUp(s.top, s.bot)
	case s.r+1 >= maxScreenRows:
		s.scrollUp(0, maxScreenRows-1)
	default:
		s.r++
	}
}

func (s *termScreen) reverseIndex() {
	if s.r == s.top && s.bot >= 0 {
		s.r0change()
		s.insertLines(s.top, 1)
		return
	}
	s.r = max(s.r-1, 0)
}

// r0change records a change of the whole row at the cursor.
func (s *termScreen) r0change() {
	c := s.c
	s.c = 0
	s.change()
	s.c = c
}

func (s *termScreen) scrollUp(top, bot int) {
	c := s.c
	s.r, s.c = top, 0
	s.change()
	s.r, s.c = bot, c
	s.row(bot)
	copy(s.rows[top:bot+1], s.rows[top+1:bot+1])
	s.rows[bot] = nil
}

// insertLines inserts n blank rows at row r, within the scroll region
// (the screen's rows when its height is unknown): the rows below move
// down, those pushed past the region's bottom are lost.
func (s *termScreen) insertLines(r, n int) {
	bot := s.bot
	if bot < 0 {
		bot = min(len(s.rows)-1+n, maxScreenRows-1)
	}
	if r > bot {
		return
	}
	n = min(n, bot-r+1)
	s.row(bot)
	copy(s.rows[r+n:bot+1], s.rows[r:bot+1-n])
	for i := r; i < r+n; i++ {
		s.rows[i] = nil
	}
}

// deleteLines removes n rows at row r, within the scroll region: the rows
// below move up, blank rows enter at the bottom.
func (s *termScreen) deleteLines(r, n int) {
	bot := s.bot
	if bot < 0 {
		bot = len(s.rows) - 1
	}
	if r > bot {
		return
	}
	n = min(n, bot-r+1)
	s.row(bot)
	copy(s.rows[r:bot+1-n], s.rows[r+n:bot+1])
	for i := bot + 1 - n; i <= bot; i++ {
		s.rows[i] = nil
	}
}

// csiParams parses a CSI's numeric parameters; private is its leading
// '?', '>' or '=' byte (0 when none); ok is false for other bytes.
func csiParams(p []byte) (nums []int, private byte, ok bool) {
	if len(p) > 0 && (p[0] == '?' || p[0] == '>' || p[0] == '=' || p[0] == '<') {
		private, p = p[0], p[1:]
	}
	if len(p) == 0 {
		return nil, private, true
	}
	for _, f := range strings.Split(string(p), ";") {
		if f == "" {
			nums = append(nums, 0)
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 1<<16 {
			return nil, private, false
		}
		nums = append(nums, n)
	}
	return nums, private, true
}

// arg returns parameter i, or def when absent or zero.
func arg(nums []int, i, def int) int {
	if i < len(nums) && nums[i] > 0 {
		return nums[i]
	}
	return def
}

// control handles a CSI sequence with its parameter bytes and final byte.
func (s *termScreen) control(params []byte, final byte) {
	if final == 'm' {
		// Colours (also with ':' sub-parameters) change no cell.
		return
	}
	nums, private, ok := csiParams(params)
	if !ok {
		// Intermediate bytes (ESC[2 q, the cursor's shape) change no cell.
		if final == 'q' || final == 'p' {
			return
		}
		s.taint()
		return
	}
	if private != 0 {
		switch final {
		case 'h', 'l':
			for _, n := range nums {
				if n == 1049 || n == 47 || n == 1047 {
					if final == 'h' {
						s.clear()
					} else {
						// Back on the main screen, whose text is not known.
						s.endFrame()
						s.known = false
					}
				}
			}
		case 'm', 'n', 'c', 'p', 'u', 'q', 'r', 's', 't':
		default:
			s.taint()
		}
		return
	}
	switch final {
	case 'H', 'f':
		s.r, s.c = min(arg(nums, 0, 1), maxScreenRows)-1, min(arg(nums, 1, 1), maxScreenCols)-1
		s.addressed = true
		s.width = max(s.width, s.c+1)
	case 'd':
		s.r = min(arg(nums, 0, 1), maxScreenRows) - 1
		s.addressed = true
	case 'G', '`':
		s.c = min(arg(nums, 0, 1), maxScreenCols) - 1
		s.width = max(s.width, s.c+1)
	case 'A':
		s.r = max(s.r-arg(nums, 0, 1), 0)
	case 'B', 'e':
		s.r = min(s.r+arg(nums, 0, 1), maxScreenRows-1)
	case 'C', 'a':
		s.c = min(s.c+arg(nums, 0, 1), maxScreenCols-1)
	case 'D':
		s.c = max(s.c-arg(nums, 0, 1), 0)
	case 'E':
		s.r, s.c = min(s.r+arg(nums, 0, 1), maxScreenRows-1), 0
	case 'F':
		s.r, s.c = max(s.r-arg(nums, 0, 1), 0), 0
	case 'K':
		s.eraseLine(arg(nums, 0, 0))
	case 'J':
		s.eraseDisplay(arg(nums, 0, 0))
	case 'X':
		s.change()
		s.blank(s.r, s.c, s.c+arg(nums, 0, 1))
	case 'P':
		s.change()
		row := s.row(s.r)
		if s.c < len(row) {
			n := min(arg(nums, 0, 1), len(row)-s.c)
			s.rows[s.r] = append(row[:s.c], row[s.c+n:]...)
		}
	case '@':
		s.change()
		row := s.row(s.r)
		if s.c < len(row) {
			n := min(arg(nums, 0, 1), maxScreenCols)
			ins := []rune(strings.Repeat(" ", n))
			row = append(row[:s.c], append(ins, row[s.c:]...)...)
			s.rows[s.r] = row[:min(len(row), maxScreenCols)]
		}
	case 'L':
		s.r0change()
		s.insertLines(s.r, arg(nums, 0, 1))
	case 'M':
		s.r0change()
		s.deleteLines(s.r, arg(nums, 0, 1))
	case 'b':
		for range min(arg(nums, 0, 1), 1<<12) {
			s.put(s.last)
		}
	case 'r':
		s.top, s.bot = min(arg(nums, 0, 1), maxScreenRows)-1, -1
		if len(nums) > 1 && nums[1] > 0 {
			s.bot = min(nums[1], maxScreenRows) - 1
		}
		if s.bot >= 0 && s.top >= s.bot {
			// No region of two rows or more: the terminal ignores it.
			s.top, s.bot = 0, -1
		}
		s.r, s.c = 0, 0
	case 's':
		s.sr, s.sc = s.r, s.c
	case 'u':
		s.r, s.c = s.sr, s.sc
	case 'm', 'h', 'l', 't', 'n', 'c', 'q', 'g':
		// Colours, modes, window reports, tab stops: no cell changes.
	default:
		s.taint()
	}
}

// blank writes spaces over columns [from, to) of row r.
func (s *termScreen) blank(r, from, to int) {
	row := s.row(r)
	for i := from; i < to && i < len(row); i++ {
		row[i] = ' '
	}
}

func (s *termScreen) eraseLine(mode int) {
	switch mode {
	case 0:
		s.change()
		if row := s.row(s.r); s.c < len(row) {
			s.rows[s.r] = row[:s.c]
		}
	case 1:
		c := s.c
		s.c = 0
		s.change()
		s.c = c
		s.blank(s.r, 0, s.c+1)
	case 2:
		s.r0change()
		s.rows[s.r] = nil
		s.row(s.r)
	default:
		s.taint()
	}
}

func (s *termScreen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		s.eraseLine(0)
		if s.r+1 < len(s.rows) {
			s.rows = s.rows[:s.r+1]
		}
	case 1:
		r, c := s.r, s.c
		s.r, s.c = 0, 0
		s.change()
		s.r, s.c = r, c
		for i := 0; i < r && i < len(s.rows); i++ {
			s.rows[i] = nil
		}
		s.blank(r, 0, c+1)
	case 2:
		s.clear()
	case 3:
		// Erasing the scrollback leaves the screen as it was.
	default:
		s.taint()
	}
}
