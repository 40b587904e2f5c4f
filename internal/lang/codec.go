package lang

import (
	"encoding/binary"
	"fmt"
)

// codecVersion is the first byte of every encoded Facts.
const codecVersion = 9

// Encode packs facts into a compact binary form: varints, a string table and
// delta-coded reference lines. It is how facts are stored per content blob.
func Encode(f *Facts) []byte {
	w := &writer{buf: make([]byte, 0, 64+len(f.Refs)*8+len(f.Defs)*64)}
	w.byte(codecVersion)
	w.str(f.Lang)
	w.str(f.Package)
	w.uint(uint64(f.ParseErrors))
	w.pos(f.FirstError)
	w.byte(byte(f.Limits))
	w.uint(uint64(len(f.Names)))
	for _, s := range f.Names {
		w.str(s)
	}
	w.uint(uint64(len(f.Defs)))
	for _, d := range f.Defs {
		w.byte(byte(d.Kind))
		w.str(d.Name)
		w.str(d.Path)
		w.int(int64(d.Parent))
		w.span(d.Span)
		w.span(d.NameSpan)
		w.str(d.Signature)
		w.str(d.Doc)
		w.byte(byte(d.Visibility))
		w.str(d.Receiver)
		w.str(d.Type)
		w.str(d.Extends)
		w.u64(d.BodyHash)
		w.uint(uint64(d.Dup))
	}
	w.uint(uint64(len(f.Refs)))
	var line uint32
	for _, r := range f.Refs {
		w.uint(uint64(r.Name))
		w.nextPos(r.Pos, &line)
		qb := byte(0)
		if r.QualBound {
			qb = 8
		}
		w.byte(byte(r.Role)<<4 | qb | byte(r.Shape))
		if r.Shape != QualNone {
			w.uint(uint64(r.Qualifier))
		}
		if r.Shape == QualCall || r.Shape == QualPath || r.Shape == QualExpr {
			w.uint(uint64(r.Via))
		}
		if r.Role == RoleCall || r.Role == RoleDoc {
			w.uint(uint64(r.Args))
		}
		w.int(int64(r.Enclosing))
		w.int(int64(r.Scope))
		w.int(int64(r.BindLocal))
		w.int(int64(r.BindDef))
		w.int(int64(r.BindImp))
	}
	w.uint(uint64(len(f.Locals)))
	for _, l := range f.Locals {
		w.uint(uint64(l.Name))
		w.pos(l.Pos)
		w.int(int64(l.Scope))
		w.str(l.Type)
		w.pos(l.From)
		w.uint(uint64(l.Via))
	}
	w.uint(uint64(len(f.Scopes)))
	for _, s := range f.Scopes {
		w.span(s.Span)
		w.int(int64(s.Parent))
	}
	w.uint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		w.str(im.Source)
		w.str(im.Name)
		w.str(im.Alias)
		w.byte(byte(im.Kind))
		w.pos(im.Pos)
	}
	w.uint(uint64(len(f.TypeRels)))
	for _, t := range f.TypeRels {
		w.int(int64(t.Def))
		w.byte(byte(t.Kind))
		w.str(t.Target)
		w.pos(t.Pos)
	}
	w.str(f.Build)
	w.uint(uint64(len(f.Dynamic)))
	for _, d := range f.Dynamic {
		w.byte(byte(d.Kind))
		w.pos(d.Pos)
		w.int(int64(d.Enclosing))
		w.str(d.Text)
	}
	w.surfaces(f.Surfaces)
	w.uint(uint64(len(f.Anonymous)))
	for _, a := range f.Anonymous {
		w.span(a.Body)
		w.int(int64(a.Base))
	}
	w.int(int64(f.DefaultExport))
	return w.buf
}

// EncodeSurfaces packs surfaces on their own (the blob store keeps them per
// kind beside the facts, so listing them reads no other facts).
func EncodeSurfaces(s []Surface) []byte {
	w := &writer{buf: make([]byte, 0, 16+len(s)*48)}
	w.byte(codecVersion)
	w.surfaces(s)
	return w.buf
}

// DecodeSurfaces unpacks what EncodeSurfaces produced.
func DecodeSurfaces(b []byte) ([]Surface, error) {
	return decode(b, "surfaces", (*reader).surfaces)
}

// decode reads what an encoder wrote into b: the version byte, then what
// read reads, then nothing more. A read past the end or a bad varint
// (a codecError panic) is an error, never a crash; what names the content
// in errors.
func decode[T any](b []byte, what string, read func(*reader) T) (out T, err error) {
	var none T
	r := &reader{buf: b}
	defer func() {
		if rec := recover(); rec != nil {
			if e, ok := rec.(codecError); ok {
				out, err = none, e
				return
			}
			panic(rec)
		}
	}()
	if v := r.byte(); v != codecVersion {
		return none, fmt.Errorf("lang: %s codec version %d, want %d", what, v, codecVersion)
	}
	out = read(r)
	if len(r.buf) != 0 {
		return none, fmt.Errorf("lang: trailing bytes in encoded %s", what)
	}
	return out, nil
}

func (w *writer) surfaces(s []Surface) {
	w.uint(uint64(len(s)))
	var line uint32
	for _, x := range s {
		w.byte(byte(x.Kind))
		w.str(x.Value)
		w.str(x.Method)
		w.str(x.Framework)
		w.str(x.Detail)
		w.nextPos(x.Pos, &line)
		w.int(int64(x.Def))
		w.byte(byte(x.Confidence))
		w.byte(byte(x.Flags))
	}
}

func (r *reader) surfaces() []Surface {
	out := sized[Surface](r.count())
	var line uint32
	for i := range out {
		x := &out[i]
		x.Kind = SurfaceKind(r.byte())
		x.Value = r.str()
		x.Method = r.str()
		x.Framework = r.str()
		x.Detail = r.str()
		x.Pos = r.nextPos(&line)
		x.Def = int32(r.int())
		x.Confidence = Confidence(r.byte())
		x.Flags = SurfaceFlags(r.byte())
	}
	return out
}

// Decode unpacks what Encode produced.
func Decode(b []byte) (*Facts, error) {
	return decode(b, "facts", (*reader).facts)
}

func (r *reader) facts() *Facts {
	f := &Facts{}
	f.Lang = r.str()
	f.Package = r.str()
	f.ParseErrors = int(r.uint())
	f.FirstError = r.pos()
	f.Limits = Limits(r.byte())
	f.Names = sized[string](r.count())
	for i := range f.Names {
		f.Names[i] = r.str()
	}
	f.Defs = sized[Def](r.count())
	for i := range f.Defs {
		d := &f.Defs[i]
		d.Kind = DefKind(r.byte())
		d.Name = r.str()
		d.Path = r.str()
		d.Parent = int32(r.int())
		d.Span = r.span()
		d.NameSpan = r.span()
		d.Signature = r.str()
		d.Doc = r.str()
		d.Visibility = Visibility(r.byte())
		d.Receiver = r.str()
		d.Type = r.str()
		d.Extends = r.str()
		d.BodyHash = r.u64()
		d.Dup = uint16(r.uint())
	}
	f.Refs = sized[Ref](r.count())
	var line uint32
	for i := range f.Refs {
		x := &f.Refs[i]
		x.Name = uint32(r.uint())
		x.Pos = r.nextPos(&line)
		rs := r.byte()
		x.Role, x.Shape, x.QualBound = Role(rs>>4), QualShape(rs&7), rs&8 != 0
		if x.Shape != QualNone {
			x.Qualifier = uint32(r.uint())
		}
		if x.Shape == QualCall || x.Shape == QualPath || x.Shape == QualExpr {
			x.Via = int32(r.uint())
		}
		if x.Role == RoleCall || x.Role == RoleDoc {
			x.Args = uint16(r.uint())
		}
		x.Enclosing = int32(r.int())
		x.Scope = int32(r.int())
		x.BindLocal = int32(r.int())
		x.BindDef = int32(r.int())
		x.BindImp = int32(r.int())
	}
	f.Locals = sized[Local](r.count())
	for i := range f.Locals {
		f.Locals[i] = Local{Name: uint32(r.uint()), Pos: r.pos(), Scope: int32(r.int()), Type: r.str(), From: r.pos(), Via: int32(r.uint())}
	}
	f.Scopes = sized[Scope](r.count())
	for i := range f.Scopes {
		f.Scopes[i] = Scope{Span: r.span(), Parent: int32(r.int())}
	}
	f.Imports = sized[Import](r.count())
	for i := range f.Imports {
		f.Imports[i] = Import{Source: r.str(), Name: r.str(), Alias: r.str(), Kind: ImportKind(r.byte()), Pos: r.pos()}
	}
	f.TypeRels = sized[TypeRel](r.count())
	for i := range f.TypeRels {
		f.TypeRels[i] = TypeRel{Def: int32(r.int()), Kind: RelKind(r.byte()), Target: r.str(), Pos: r.pos()}
	}
	f.Build = r.str()
	f.Dynamic = sized[DynamicSite](r.count())
	for i := range f.Dynamic {
		f.Dynamic[i] = DynamicSite{Kind: DynKind(r.byte()), Pos: r.pos(), Enclosing: int32(r.int()), Text: r.str()}
	}
	f.Surfaces = r.surfaces()
	f.Anonymous = sized[Anonymous](r.count())
	for i := range f.Anonymous {
		f.Anonymous[i] = Anonymous{Body: r.span(), Base: int32(r.int())}
	}
	f.DefaultExport = int32(r.int())
	return f
}

type writer struct{ buf []byte }

func (w *writer) byte(b byte)   { w.buf = append(w.buf, b) }
func (w *writer) uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *writer) int(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }
func (w *writer) u64(v uint64)  { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *writer) str(s string)  { w.uint(uint64(len(s))); w.buf = append(w.buf, s...) }
func (w *writer) pos(p Pos)     { w.uint(uint64(p.Line)); w.uint(uint64(p.Col)) }
func (w *writer) span(s Span) {
	w.pos(s.Start)
	w.int(int64(s.End.Line) - int64(s.Start.Line))
	w.uint(uint64(s.End.Col))
}
func (r *reader) span() Span {
	s := r.pos()
	el := int64(s.Line) + r.int()
	return Span{s, Pos{uint32(el), uint32(r.uint())}}
}
func (r *reader) pos() Pos { return Pos{uint32(r.uint()), uint32(r.uint())} }

// nextPos writes a position of a list in position order: its line as the
// difference from the line of the one before (*line, updated), then its
// column.
func (w *writer) nextPos(p Pos, line *uint32) {
	w.int(int64(p.Line) - int64(*line))
	*line = p.Line
	w.uint(uint64(p.Col))
}

// nextPos reads what writer.nextPos wrote.
func (r *reader) nextPos(line *uint32) Pos {
	*line = uint32(int64(*line) + r.int())
	return Pos{*line, uint32(r.uint())}
}
func (r *reader) count() int {
	n := r.uint()
	if n > uint64(len(r.buf)) {
		panic(codecError("lang: corrupt count"))
	}
	return int(n)
}

type codecError string

func (e codecError) Error() string { return string(e) }

type reader struct{ buf []byte }

func (r *reader) byte() byte {
	if len(r.buf) == 0 {
		panic(codecError("lang: truncated facts"))
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *reader) uint() uint64 { return varint(r, binary.Uvarint) }

func (r *reader) int() int64 { return varint(r, binary.Varint) }

// varint reads one varint with dec (binary.Uvarint or binary.Varint).
func varint[T int64 | uint64](r *reader, dec func([]byte) (T, int)) T {
	v, n := dec(r.buf)
	if n <= 0 {
		panic(codecError("lang: bad varint"))
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) u64() uint64 {
	if len(r.buf) < 8 {
		panic(codecError("lang: truncated facts"))
	}
	v := binary.LittleEndian.Uint64(r.buf)
	r.buf = r.buf[8:]
	return v
}

func (r *reader) str() string {
	n := r.count()
	s := string(r.buf[:n])
	r.buf = r.buf[n:]
	return s
}

// sized makes a slice of n elements, nil when n is 0 (so decoded facts compare
// equal to extracted ones).
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}
