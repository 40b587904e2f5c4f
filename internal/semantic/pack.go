package semantic

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
)

// Occ is one occurrence in Cairn's coordinates: 1-based lines, 1-based byte
// columns, EndCol exclusive.
type Occ struct {
	Sym     int64 // SymbolID of the SCIP symbol
	Doc     int64 // ord of the document in its index
	Line    uint32
	Col     uint32
	EndLine uint32
	EndCol  uint32
	Roles   int32
}

var errCorrupt = errors.New("semantic: corrupt packed occurrences")

func sortByPos(occs []Occ) {
	slices.SortFunc(occs, func(a, b Occ) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Sym, b.Sym))
	})
}

func sortByDoc(occs []Occ) {
	slices.SortFunc(occs, func(a, b Occ) int {
		return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// EncodeDocOccs packs one document's occurrences (sorted here by position).
func EncodeDocOccs(occs []Occ) []byte {
	sortByPos(occs)
	buf := binary.AppendUvarint(make([]byte, 0, 16*len(occs)+4), uint64(len(occs)))
	var prev uint32
	for _, o := range occs {
		buf = binary.AppendUvarint(buf, uint64(o.Line-prev))
		prev = o.Line
		buf = appendSpan(buf, o)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(o.Sym))
	}
	return buf
}

// DecodeDocOccs unpacks EncodeDocOccs output (Doc is left zero).
func DecodeDocOccs(b []byte) ([]Occ, error) {
	var line uint32
	return decodeOccs(b, func(r *reader) Occ {
		line += uint32(r.uvarint())
		o := Occ{Line: line}
		r.span(&o)
		o.Sym = int64(r.uint64())
		return o
	})
}

// EncodeSymbolOccs packs one symbol's occurrences (sorted here by document
// and position; Sym is not stored).
func EncodeSymbolOccs(occs []Occ) []byte {
	sortByDoc(occs)
	buf := binary.AppendUvarint(make([]byte, 0, 8*len(occs)+4), uint64(len(occs)))
	var prevDoc int64
	var prevLine uint32
	for _, o := range occs {
		buf = binary.AppendUvarint(buf, uint64(o.Doc-prevDoc))
		if o.Doc != prevDoc {
			prevLine = 0
		}
		prevDoc = o.Doc
		buf = binary.AppendUvarint(buf, uint64(o.Line-prevLine))
		prevLine = o.Line
		buf = appendSpan(buf, o)
	}
	return buf
}

// appendSpan writes what both encodings keep after an occurrence's line:
// its column, its end (a line delta and a column) and its roles.
func appendSpan(buf []byte, o Occ) []byte {
	buf = binary.AppendUvarint(buf, uint64(o.Col))
	buf = binary.AppendUvarint(buf, uint64(o.EndLine-o.Line))
	buf = binary.AppendUvarint(buf, uint64(o.EndCol))
	return binary.AppendUvarint(buf, uint64(uint32(o.Roles)))
}

// DecodeSymbolOccs unpacks EncodeSymbolOccs output, setting Sym to sym.
func DecodeSymbolOccs(b []byte, sym int64) ([]Occ, error) {
	var doc int64
	var line uint32
	return decodeOccs(b, func(r *reader) Occ {
		d := int64(r.uvarint())
		if d != 0 {
			line = 0
		}
		doc += d
		line += uint32(r.uvarint())
		o := Occ{Sym: sym, Doc: doc, Line: line}
		r.span(&o)
		return o
	})
}

// decodeOccs reads a count, then that many occurrences with next, which
// keeps the delta state of its encoding.
func decodeOccs(b []byte, next func(r *reader) Occ) ([]Occ, error) {
	r := reader{b: b}
	n, ok := r.count()
	if !ok {
		return nil, errCorrupt
	}
	out := make([]Occ, 0, n)
	for i := uint64(0); i < n; i++ {
		o := next(&r)
		if r.err != nil {
			return nil, errCorrupt
		}
		out = append(out, o)
	}
	return out, nil
}

type reader struct {
	b   []byte
	err error
}

// count reads how many occurrences follow; false when the count is
// unreadable or more than the bytes could hold.
func (r *reader) count() (uint64, bool) {
	n := r.uvarint()
	return n, r.err == nil && n <= uint64(len(r.b))
}

// span reads what appendSpan wrote into o, whose Line is set.
func (r *reader) span(o *Occ) {
	o.Col = uint32(r.uvarint())
	o.EndLine = o.Line + uint32(r.uvarint())
	o.EndCol = uint32(r.uvarint())
	o.Roles = int32(uint32(r.uvarint()))
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *reader) uint64() uint64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errCorrupt
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}
