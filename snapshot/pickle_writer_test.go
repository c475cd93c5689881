package snapshot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// A small pickler for tests: it writes generic value trees (pyvalue.go
// types) the way CPython's pickler (protocols 2 to 5) or PyTorch's C++
// pickler (protocol 2, torch/csrc/jit/serialization/pickler.cpp with
// tag_aggregates off, as _memory_snapshot_pickled uses it) lay them out,
// so tests control every byte of their input. Lists and dicts are shared
// by pointer, as objects are by identity.

type pickleStyle int

const (
	stylePy4   pickleStyle = iota // CPython protocol 4: FRAME, MEMOIZE, batches of 1000
	stylePy5                      // CPython protocol 5 (3.14's default): same opcodes as 4
	stylePy2                      // CPython protocol 2: BINPUT memo, no frames
	styleCpp                      // PyTorch's C++ pickler: protocol 2, memo after build
	styleMarks                    // protocol 2 with containers built after their items (MARK ... LIST/DICT)
)

func (s pickleStyle) String() string {
	return [...]string{"py4", "py5", "py2", "cpp", "marks"}[s]
}

type pickler struct {
	style pickleStyle
	out   bytes.Buffer // committed output
	frame bytes.Buffer // current frame (framed styles)
	memo  map[any]int  // container pointer or string -> memo slot
	uses  map[any]int  // C++ style: how often a container is referenced
	n     int
}

// writePickle pickles v in the given style.
func writePickle(v any, style pickleStyle) []byte {
	p := &pickler{style: style, memo: map[any]int{}}
	proto := byte(2)
	switch style {
	case stylePy4:
		proto = 4
	case stylePy5:
		proto = 5
	}
	p.out.Write([]byte{opProto, proto})
	if style == styleCpp || style == styleMarks {
		p.uses = map[any]int{}
		p.count(v)
	}
	p.save(v)
	p.w().WriteByte(opStop)
	p.commit()
	return p.out.Bytes()
}

func (p *pickler) framed() bool { return p.style == stylePy4 || p.style == stylePy5 }

// w is where opcodes go: the current frame, or the output.
func (p *pickler) w() *bytes.Buffer {
	if p.framed() {
		return &p.frame
	}
	return &p.out
}

// commit writes the current frame out, as CPython does at an opcode
// boundary once a frame reaches 64 KiB (and at the end).
func (p *pickler) commit() {
	if !p.framed() || p.frame.Len() == 0 {
		return
	}
	var h [9]byte
	h[0] = opFrame
	binary.LittleEndian.PutUint64(h[1:], uint64(p.frame.Len()))
	p.out.Write(h[:])
	p.out.Write(p.frame.Bytes())
	p.frame.Reset()
}

func (p *pickler) boundary() {
	if p.framed() && p.frame.Len() >= 64<<10 {
		p.commit()
	}
}

// count finds the containers referenced more than once (the C++ pickler
// memoizes those only).
func (p *pickler) count(v any) {
	switch x := v.(type) {
	case *pyList:
		p.uses[x]++
		if p.uses[x] == 1 {
			for _, e := range x.items {
				p.count(e)
			}
		}
	case *pyDict:
		p.uses[x]++
		if p.uses[x] == 1 {
			for i := range x.keys {
				p.count(x.keys[i])
				p.count(x.vals[i])
			}
		}
	case pyTuple:
		for _, e := range x {
			p.count(e)
		}
	}
}

func (p *pickler) put() {
	w := p.w()
	switch {
	case p.framed():
		w.WriteByte(opMemoize)
	case p.n < 256:
		w.Write([]byte{opBinPut, byte(p.n)})
	default:
		w.WriteByte(opLongBinPut)
		binary.Write(w, binary.LittleEndian, uint32(p.n))
	}
	p.n++
}

// get writes a memo reference and reports whether key was memoized.
func (p *pickler) get(key any) bool {
	i, ok := p.memo[key]
	if !ok {
		return false
	}
	w := p.w()
	if i < 256 {
		w.Write([]byte{opBinGet, byte(i)})
	} else {
		w.WriteByte(opLongBinGet)
		binary.Write(w, binary.LittleEndian, uint32(i))
	}
	return true
}

func (p *pickler) save(v any) {
	p.saveValue(v)
	p.boundary()
}

func (p *pickler) saveValue(v any) {
	w := p.w()
	switch x := v.(type) {
	case nil:
		w.WriteByte(opNone)
	case bool:
		if x {
			w.WriteByte(opNewTrue)
		} else {
			w.WriteByte(opNewFalse)
		}
	case int:
		p.saveInt(big.NewInt(int64(x)))
	case int64:
		p.saveInt(big.NewInt(x))
	case uint64:
		p.saveInt(new(big.Int).SetUint64(x))
	case *big.Int:
		p.saveInt(x)
	case float64:
		w.WriteByte(opBinFloat)
		binary.Write(w, binary.BigEndian, math.Float64bits(x))
	case string:
		if p.get(x) {
			return
		}
		switch {
		case len(x) < 256 && p.framed():
			w.Write([]byte{opShortBinUnicode, byte(len(x))})
		default:
			w.WriteByte(opBinUnicode)
			binary.Write(w, binary.LittleEndian, uint32(len(x)))
		}
		w.WriteString(x)
		p.memo[x] = p.n
		p.put()
	case []byte:
		w.Write([]byte{opShortBinBytes, byte(len(x))})
		w.Write(x)
	case pyTuple:
		switch len(x) {
		case 0:
			w.WriteByte(opEmptyTuple)
			return
		case 1, 2, 3:
			for _, e := range x {
				p.save(e)
			}
			p.w().WriteByte(opTuple1 + byte(len(x)-1))
		default:
			w.WriteByte(opMark)
			for _, e := range x {
				p.save(e)
			}
			p.w().WriteByte(opTuple)
		}
		if p.style != styleCpp {
			p.put()
		}
	case *pyList:
		if p.get(x) {
			return
		}
		if p.style == styleMarks {
			w.WriteByte(opMark)
			for _, e := range x.items {
				p.save(e)
			}
			p.w().WriteByte(opList)
			p.cppMemo(x)
			return
		}
		w.WriteByte(opEmptyList)
		if p.style == styleCpp {
			w.WriteByte(opMark)
			for _, e := range x.items {
				p.save(e)
			}
			p.w().WriteByte(opAppends)
			p.cppMemo(x)
			return
		}
		p.memo[x] = p.n
		p.put()
		p.batch(len(x.items), func(i int) { p.save(x.items[i]) }, opAppend, opAppends)
	case *pyDict:
		if p.get(x) {
			return
		}
		if p.style == styleMarks {
			w.WriteByte(opMark)
			for i := range x.keys {
				p.save(x.keys[i])
				p.save(x.vals[i])
			}
			p.w().WriteByte(opDict)
			p.cppMemo(x)
			return
		}
		w.WriteByte(opEmptyDict)
		if p.style == styleCpp {
			if len(x.keys) > 0 {
				w.WriteByte(opMark)
				for i := range x.keys {
					p.save(x.keys[i])
					p.save(x.vals[i])
				}
				p.w().WriteByte(opSetItems)
			}
			p.cppMemo(x)
			return
		}
		p.memo[x] = p.n
		p.put()
		p.batch(len(x.keys), func(i int) { p.save(x.keys[i]); p.save(x.vals[i]) }, opSetItem, opSetItems)
	default:
		panic(fmt.Sprintf("writePickle: unsupported %T", v))
	}
}

// cppMemo memoizes a finished container the C++ pickler's way: only when
// it is referenced more than once.
func (p *pickler) cppMemo(x any) {
	if p.uses[x] > 1 {
		p.memo[x] = p.n
		p.put()
	}
}

// batch writes n items in CPython's batches of 1000: MARK ... many for
// more than one item, the single opcode for one.
func (p *pickler) batch(n int, item func(int), one, many byte) {
	for start := 0; start < n; start += 1000 {
		k := min(1000, n-start)
		if k == 1 {
			item(start)
			p.w().WriteByte(one)
			continue
		}
		p.w().WriteByte(opMark)
		for i := start; i < start+k; i++ {
			item(i)
		}
		p.w().WriteByte(many)
	}
}

func (p *pickler) saveInt(x *big.Int) {
	w := p.w()
	switch {
	case x.Sign() >= 0 && x.Cmp(big.NewInt(256)) < 0:
		w.Write([]byte{opBinInt1, byte(x.Int64())})
	case x.Sign() >= 0 && x.Cmp(big.NewInt(65536)) < 0:
		w.WriteByte(opBinInt2)
		binary.Write(w, binary.LittleEndian, uint16(x.Int64()))
	case x.IsInt64() && x.Int64() >= math.MinInt32 && x.Int64() <= math.MaxInt32:
		w.WriteByte(opBinInt)
		binary.Write(w, binary.LittleEndian, int32(x.Int64()))
	default:
		b := encodeLong(x)
		if p.style == styleCpp && x.IsInt64() {
			b = make([]byte, 8)
			binary.LittleEndian.PutUint64(b, uint64(x.Int64()))
		}
		w.Write([]byte{opLong1, byte(len(b))})
		w.Write(b)
	}
}

// encodeLong is Python's two's complement little-endian LONG encoding,
// shortest form.
func encodeLong(x *big.Int) []byte {
	if x.Sign() == 0 {
		return nil
	}
	n := (x.BitLen() + 8) / 8 // room for the sign bit
	v := new(big.Int).Set(x)
	if x.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	be := v.FillBytes(make([]byte, n))
	le := make([]byte, n)
	for i := range be {
		le[n-1-i] = be[i]
	}
	// Drop redundant sign bytes, as CPython's encoder does.
	for len(le) > 1 && ((le[len(le)-1] == 0 && le[len(le)-2]&0x80 == 0) || (le[len(le)-1] == 0xff && le[len(le)-2]&0x80 != 0)) {
		le = le[:len(le)-1]
	}
	return le
}

// Helpers to build generic trees tersely.

func pyD(kv ...any) *pyDict {
	d := &pyDict{}
	for i := 0; i < len(kv); i += 2 {
		d.set(kv[i], kv[i+1])
	}
	return d
}

func pyL(items ...any) *pyList { return &pyList{items: items} }
