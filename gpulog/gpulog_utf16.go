package gpulog

import (
	"bufio"
	"io"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Windows PowerShell 5 writes redirected output (nvidia-smi ... > gpu.csv)
// as UTF-16 with a byte order mark. SniffLog and ReadLog recognise the
// mark and read such files as if they were UTF-8. The decoding itself is
// golang.org/x/text's: it pairs surrogates across reads and replaces
// unpaired ones and an odd last byte with U+FFFD.

// utf16Order returns the byte order of a UTF-16 byte order mark at the
// start of b: 'L' (little endian), 'B' (big endian), or 0 when none.
func utf16Order(b []byte) byte {
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return 'L'
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return 'B'
	}
	return 0
}

// utf16Decoder decodes UTF-16 text of the given order (after its mark) to
// UTF-8.
func utf16Decoder(order byte) *encoding.Decoder {
	e := unicode.LittleEndian
	if order == 'B' {
		e = unicode.BigEndian
	}
	return unicode.UTF16(e, unicode.IgnoreBOM).NewDecoder()
}

// utf16ToUTF8 converts the start of a UTF-16 file (after its mark) to
// UTF-8; an odd last byte, where the start was cut, is dropped.
func utf16ToUTF8(b []byte, order byte) []byte {
	out, _, _ := transform.Bytes(utf16Decoder(order), b[:len(b)&^1])
	return out
}

// maybeUTF16 returns r unchanged, or, when r starts with a UTF-16 byte
// order mark, a reader of its text as UTF-8.
func maybeUTF16(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	head, _ := br.Peek(2)
	order := utf16Order(head)
	if order == 0 {
		return br
	}
	br.Discard(2)
	return transform.NewReader(br, utf16Decoder(order))
}
