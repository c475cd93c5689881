package ingest

import (
	"bufio"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Windows PowerShell 5 writes redirected output (nvidia-smi ... > gpu.csv)
// as UTF-16 with a byte order mark. SniffLog and ReadLog recognise the
// mark and read such files as if they were UTF-8.

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

// utf16ToUTF8 converts UTF-16 text (after its mark) to UTF-8; an odd last
// byte is dropped and unpaired surrogates become U+FFFD.
func utf16ToUTF8(b []byte, order byte) []byte {
	units := make([]uint16, len(b)/2)
	for i := range units {
		if order == 'L' {
			units[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		} else {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
	}
	out := make([]byte, 0, len(units))
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out
}

// utf16Reader decodes a UTF-16 stream (its mark already consumed) to UTF-8.
type utf16Reader struct {
	r     *bufio.Reader
	order byte
	// hi is a pending high surrogate, 0 when none.
	hi  uint16
	out []byte
	err error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 && u.err == nil {
		var pair [2]byte
		if _, err := io.ReadFull(u.r, pair[:]); err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			u.err = err
			if u.hi != 0 {
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
			}
			break
		}
		c := uint16(pair[0]) | uint16(pair[1])<<8
		if u.order == 'B' {
			c = uint16(pair[0])<<8 | uint16(pair[1])
		}
		switch {
		case u.hi != 0 && c >= 0xdc00 && c < 0xe000:
			u.out = utf8.AppendRune(u.out, utf16.DecodeRune(rune(u.hi), rune(c)))
			u.hi = 0
		case c >= 0xd800 && c < 0xdc00:
			if u.hi != 0 {
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
			}
			u.hi = c
		default:
			if u.hi != 0 {
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
				u.hi = 0
			}
			u.out = utf8.AppendRune(u.out, rune(c))
		}
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	if n > 0 {
		return n, nil
	}
	return 0, u.err
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
	return &utf16Reader{r: br, order: order}
}
