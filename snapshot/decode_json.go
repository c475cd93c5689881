package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
)

// A snapshot saved as JSON: json.dump(torch.cuda.memory._snapshot(), f),
// which PyTorch's memory viewer opens as well as the pickle. Tuples
// (segment_pool_id) become lists and bytes cannot occur; the layout and
// the keys are the pickle's, so the JSON is read into the generic value
// tree (pyvalue.go) and converted as a pickle's would be. Keys keep their
// order; integers beyond 64 bits become *big.Int, as in a pickle.

// jsonSniffLen is how much of a file's start looksLikeJSONSnapshot needs:
// a segment's first keys come within the first few hundred bytes.
const jsonSniffLen = 4 << 10

// snapshotKeys are the top-level keys of torch.cuda.memory._snapshot(),
// one of which comes first in its JSON (in the dict's order, or sorted).
var snapshotKeys = []string{"segments", "device_traces", "allocator_settings", "external_annotations"}

// looksLikeJSONSnapshot reports whether head, the start of a file, is a
// JSON snapshot: an object whose first key is one of snapshotKeys (as
// json.dump writes _snapshot()'s dict), or any of whose top-level keys
// within head is "segments" or "device_traces" holding a list (a dict
// that gained a key before them, or was rewritten in another order); or an
// array whose text soon names a segment's address and total_size (a
// memory_snapshot() list). memory_stats() lines, the capture kit's
// manifests and other JSON are not.
func looksLikeJSONSnapshot(head []byte) bool {
	t := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	t = bytes.TrimLeft(t, " \t\r\n")
	if len(t) > jsonSniffLen {
		t = t[:jsonSniffLen]
	}
	switch {
	case bytes.HasPrefix(t, []byte("{")):
		key := bytes.TrimLeft(t[1:], " \t\r\n")
		for _, k := range snapshotKeys {
			if bytes.HasPrefix(key, []byte(`"`+k+`"`)) {
				return true
			}
		}
		return hasTopLevelList(t, "segments", "device_traces")
	case bytes.HasPrefix(t, []byte("[")):
		return bytes.Contains(t, []byte(`"total_size"`)) && bytes.Contains(t, []byte(`"address"`))
	}
	return false
}

// hasTopLevelList reports whether the JSON object that t begins with has,
// before t ends (it may be cut anywhere), one of keys at its top level
// with a list as its value.
func hasTopLevelList(t []byte, keys ...string) bool {
	d := json.NewDecoder(bytes.NewReader(t))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for {
		k, err := d.Token()
		if err != nil {
			return false
		}
		key, ok := k.(string)
		if !ok {
			return false // the object's end
		}
		v, err := d.Token()
		if err != nil {
			return false
		}
		if v == json.Delim('[') && slices.Contains(keys, key) {
			return true
		}
		// Skip the value: a scalar, or a container to its end.
		for depth := 0; ; {
			switch v {
			case json.Delim('['), json.Delim('{'):
				depth++
			case json.Delim(']'), json.Delim('}'):
				depth--
			}
			if depth == 0 {
				break
			}
			if v, err = d.Token(); err != nil {
				return false
			}
		}
	}
}

// decodeJSON reads a JSON snapshot from r.
func decodeJSON(r io.Reader) (s *Snapshot, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, &internalError{p}
		}
	}()
	br := bufio.NewReaderSize(r, 1<<16)
	if head, _ := br.Peek(3); bytes.Equal(head, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	d := json.NewDecoder(br)
	d.UseNumber()
	v, err := jsonValue(d, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("JSON: more than one value (byte %d)", d.InputOffset())
	}
	s, err = convertSnapshotAt(v, 0)
	if pe := (*pathError)(nil); errors.As(err, &pe) {
		pe.json = true
	}
	return s, err
}

// jsonValue reads one JSON value from d into the generic value tree.
func jsonValue(d *json.Decoder, depth int) (any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("JSON: %w: containers nested deeper than %d levels (byte %d)", ErrLimit, maxNesting, d.InputOffset())
	}
	at := d.InputOffset()
	tok, err := d.Token()
	if err != nil {
		return nil, jsonErr(d, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			dict := &pyDict{at: at + 1}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, jsonErr(d, err)
				}
				v, err := jsonValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				dict.set(kt, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, jsonErr(d, err)
			}
			return dict, nil
		case '[':
			list := &pyList{at: at + 1}
			for d.More() {
				v, err := jsonValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				list.items = append(list.items, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, jsonErr(d, err)
			}
			return list, nil
		}
		return nil, fmt.Errorf("JSON at byte %d: unexpected %v", at, t)
	case json.Number:
		return jsonNumber(t), nil
	}
	return tok, nil // string, bool or nil
}

// jsonErr says where reading JSON failed; an end of input inside a value
// is a cut file.
func jsonErr(d *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("JSON at byte %d: %w (the file is cut short)", d.InputOffset(), io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("JSON at byte %d: %w", d.InputOffset(), err)
}

// jsonNumber is a JSON number as a Python int (int64, or *big.Int past
// 64 bits) or float.
func jsonNumber(n json.Number) any {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i
	}
	if b, ok := new(big.Int).SetString(string(n), 10); ok {
		return b
	}
	f, _ := strconv.ParseFloat(string(n), 64)
	return f
}
