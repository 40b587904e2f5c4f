package lang_test

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

// sourceFacts extracts the facts of every source file of every language's
// fixtures (internal/lang/*/testdata/*.txtar), by "dir/fixture.txtar:file".
func sourceFacts(t testing.TB) map[string]*lang.Facts {
	t.Helper()
	x := lang.NewExtractor()
	defer x.Close()
	out := map[string]*lang.Facts{}
	for _, f := range langtest.Files(t, filepath.Join("*", "testdata", "*.txtar")) {
		if f.Name == "want.json" {
			continue
		}
		l := lang.ForFile(f.Name, f.Data)
		if l == nil {
			t.Fatalf("%s: no language for %s", f.Archive, f.Name)
		}
		facts, err := x.Extract(l, f.Data)
		if err != nil {
			t.Fatalf("%s: %s: %v", f.Archive, f.Name, err)
		}
		out[f.Archive+":"+f.Name] = facts
	}
	return out
}

// Facts extracted from real sources of every language come back from the
// codec equal, and encoding is deterministic.
func TestCodecRoundTripSources(t *testing.T) {
	all := sourceFacts(t)
	dirs := map[string]bool{}
	langs := map[string]bool{}
	for name, facts := range all {
		dirs[strings.Split(name, string(filepath.Separator))[0]] = true
		langs[facts.Lang] = true
		checkRoundTrip(t, name, facts)
	}
	// The directories with fixture archives (a testdata holding only a
	// fuzz corpus has none).
	fixtures, _ := filepath.Glob(filepath.Join("*", "testdata", "*.txtar"))
	fixtureDirs := map[string]bool{}
	for _, f := range fixtures {
		fixtureDirs[strings.Split(f, string(filepath.Separator))[0]] = true
	}
	if len(dirs) != len(fixtureDirs) {
		t.Errorf("facts from %d of %d fixture directories", len(dirs), len(fixtureDirs))
	}
	for _, l := range lang.All() {
		if !langs[l.Name] {
			t.Errorf("no fixture source in %s: the codec is not checked on its facts", l.Name)
		}
	}
}

func checkRoundTrip(t *testing.T, name string, facts *lang.Facts) {
	t.Helper()
	enc := lang.Encode(facts)
	back, err := lang.Decode(enc)
	if err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	if diff := cmp.Diff(facts, back); diff != "" {
		t.Errorf("%s: round trip (-encoded +decoded):\n%s", name, diff)
	}
	if again := lang.Encode(back); !bytes.Equal(enc, again) {
		t.Errorf("%s: encoding the decoded facts gives other bytes", name)
	}
	surfaces, err := lang.DecodeSurfaces(lang.EncodeSurfaces(facts.Surfaces))
	if err != nil {
		t.Fatalf("%s: decode surfaces: %v", name, err)
	}
	if diff := cmp.Diff(facts.Surfaces, surfaces); diff != "" {
		t.Errorf("%s: surfaces round trip (-encoded +decoded):\n%s", name, diff)
	}
}

// edgeFacts are hand-built facts at the edges of what the codec holds:
// nothing at all, zero positions, Unicode and empty strings, the largest and
// smallest values of every field, lines that go backwards, every kind.
func edgeFacts() map[string]*lang.Facts {
	big := strings.Repeat("é", 1<<19) // 1 MiB
	maxPos := lang.Pos{Line: math.MaxUint32, Col: math.MaxUint32}
	facts := map[string]*lang.Facts{
		"empty":          {},
		"empty language": {Lang: "go"},
		"zero positions": {
			Lang: "go", Names: []string{"x"},
			Defs:      []lang.Def{{Name: "x", Parent: -1}},
			Refs:      []lang.Ref{{Enclosing: -1, Scope: -1, BindLocal: -1, BindDef: -1, BindImp: -1}},
			Locals:    []lang.Local{{}},
			Scopes:    []lang.Scope{{Parent: -1}},
			Imports:   []lang.Import{{}},
			TypeRels:  []lang.TypeRel{{}},
			Dynamic:   []lang.DynamicSite{{Enclosing: -1}},
			Surfaces:  []lang.Surface{{Def: -1}},
			Anonymous: []lang.Anonymous{{}},
		},
		"unicode": {
			Lang: "python", Package: "пакет", Build: "linux && !cgo", Names: []string{"名前", "ñandú", "", "emoji😀", "\x00nul"},
			Defs: []lang.Def{{Kind: lang.KindClass, Name: "Ünïcødé", Path: "Ωmega.Ünïcødé", Parent: -1, Signature: "class Ünïcødé(基底):",
				Doc: "Ein Satz — mit Gedankenstrich.", Visibility: lang.VisPublic, Receiver: "τ", Type: "目", Extends: "ё"}},
			Imports:  []lang.Import{{Source: "./модуль", Name: "名", Alias: "別名", Kind: lang.ImportNamed, Pos: lang.Pos{Line: 1, Col: 1}}},
			Dynamic:  []lang.DynamicSite{{Kind: lang.DynEval, Pos: lang.Pos{Line: 3, Col: 5}, Enclosing: 0, Text: "eval(«x»)"}},
			Surfaces: []lang.Surface{{Kind: lang.SurfLog, Value: "привет {}", Method: "info", Framework: "logging", Detail: "—", Def: 0}},
		},
		"largest values": {
			Lang: big, Package: big, ParseErrors: math.MaxInt, FirstError: maxPos, Build: big, Names: []string{big},
			Defs: []lang.Def{{Kind: lang.KindConstructor, Name: big, Path: big, Parent: math.MaxInt32,
				Span: lang.Span{Start: maxPos, End: maxPos}, NameSpan: lang.Span{Start: maxPos, End: maxPos},
				Signature: big, Doc: big, Visibility: lang.VisPrivate, Receiver: big, Type: big, Extends: big, BodyHash: math.MaxUint64, Dup: math.MaxUint16}},
			Refs: []lang.Ref{{Name: math.MaxUint32, Pos: maxPos, Role: lang.RoleType, Shape: lang.QualCall, Qualifier: math.MaxUint32,
				QualBound: true, Enclosing: math.MaxInt32, Scope: math.MaxInt32, BindLocal: math.MaxInt32, BindDef: math.MaxInt32,
				BindImp: math.MaxInt32, Via: math.MaxInt32}},
			Locals:   []lang.Local{{Name: math.MaxUint32, Pos: maxPos, Scope: math.MaxInt32, Type: big, From: maxPos, Via: math.MaxInt32}},
			Scopes:   []lang.Scope{{Span: lang.Span{Start: maxPos, End: maxPos}, Parent: math.MaxInt32}},
			Imports:  []lang.Import{{Source: big, Name: big, Alias: big, Kind: lang.ImportSideEffect, Pos: maxPos}},
			TypeRels: []lang.TypeRel{{Def: math.MaxInt32, Kind: lang.RelEmbeds, Target: big, Pos: maxPos}},
			Dynamic:  []lang.DynamicSite{{Kind: lang.DynSetattr, Pos: maxPos, Enclosing: math.MaxInt32, Text: big}},
			Surfaces: []lang.Surface{{Kind: lang.SurfException, Value: big, Method: big, Framework: big, Detail: big, Pos: maxPos,
				Def: math.MaxInt32, Confidence: lang.ConfHigh, Flags: lang.SurfPathRoute | lang.SurfAppTable}},
			Anonymous:     []lang.Anonymous{{Body: lang.Span{Start: maxPos, End: maxPos}, Base: math.MaxInt32}},
			DefaultExport: math.MaxInt32,
		},
		"smallest values": {
			ParseErrors: math.MinInt,
			Defs: []lang.Def{{Parent: math.MinInt32,
				// The end before the start: spans are stored as deltas.
				Span: lang.Span{Start: maxPos, End: lang.Pos{}}, NameSpan: lang.Span{Start: lang.Pos{Line: 9}, End: lang.Pos{Line: 1}}}},
			Refs: []lang.Ref{
				{Pos: maxPos, Enclosing: math.MinInt32, Scope: math.MinInt32, BindLocal: math.MinInt32, BindDef: math.MinInt32, BindImp: math.MinInt32},
				{Pos: lang.Pos{}, Shape: lang.QualCall, Via: math.MinInt32}, // lines go back to 0
				{Pos: maxPos},
			},
			Locals:        []lang.Local{{Scope: math.MinInt32, Via: math.MinInt32}},
			Scopes:        []lang.Scope{{Span: lang.Span{Start: maxPos}, Parent: math.MinInt32}},
			TypeRels:      []lang.TypeRel{{Def: math.MinInt32}},
			Dynamic:       []lang.DynamicSite{{Enclosing: math.MinInt32}},
			Surfaces:      []lang.Surface{{Pos: maxPos, Def: math.MinInt32}, {Pos: lang.Pos{Line: 1}, Def: -1}},
			Anonymous:     []lang.Anonymous{{Body: lang.Span{Start: maxPos}, Base: math.MinInt32}},
			DefaultExport: math.MinInt32,
		},
	}
	// Every role with every qualifier shape, bound and not.
	var every lang.Facts
	every.Names = []string{"name", "qualifier"}
	for role := lang.RoleRead; role <= lang.RoleType; role++ {
		for shape := lang.QualNone; shape <= lang.QualType; shape++ {
			r := lang.Ref{Name: 0, Pos: lang.Pos{Line: uint32(role) + 1, Col: uint32(shape) + 1}, Role: role, Shape: shape,
				Enclosing: -1, Scope: -1, BindLocal: -1, BindDef: -1, BindImp: -1}
			if shape != lang.QualNone {
				r.Qualifier, r.QualBound = 1, role%2 == 0
			}
			if shape == lang.QualCall {
				r.Via = int32(role)
			}
			every.Refs = append(every.Refs, r)
		}
	}
	for k := lang.KindUnknown; k <= lang.KindConstructor; k++ {
		every.Defs = append(every.Defs, lang.Def{Kind: k, Name: k.String(), Path: k.String(), Parent: -1, Visibility: lang.Visibility(k % 4)})
	}
	for k := lang.ImportModule; k <= lang.ImportSideEffect; k++ {
		every.Imports = append(every.Imports, lang.Import{Source: k.String(), Kind: k})
	}
	for _, k := range lang.SurfaceKinds() {
		every.Surfaces = append(every.Surfaces, lang.Surface{Kind: k, Value: k.String(), Def: -1, Confidence: lang.Confidence(k % 2)})
	}
	facts["every kind"] = &every
	return facts
}

func TestCodecRoundTripEdges(t *testing.T) {
	for name, facts := range edgeFacts() {
		checkRoundTrip(t, name, facts)
	}
}

// encodings returns the encodings of the edge cases and of a few real files
// (the largest real file of each language fixture directory), by name,
// in a stable order.
func encodings(t testing.TB) (names []string, encs map[string][]byte) {
	encs = map[string][]byte{}
	for name, facts := range edgeFacts() {
		if name != "largest values" { // a megabyte per case would make the damage tests slow
			encs[name] = lang.Encode(facts)
		}
	}
	largest := map[string]string{}
	all := sourceFacts(t)
	for name, facts := range all {
		dir := strings.Split(name, string(filepath.Separator))[0]
		if cur, ok := largest[dir]; !ok || len(lang.Encode(facts)) > len(lang.Encode(all[cur])) {
			largest[dir] = name
		}
	}
	for _, name := range largest {
		encs[name] = lang.Encode(all[name])
	}
	for name := range encs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, encs
}

// decode runs both decoders over b and reports a panic as a test failure.
func decode(t *testing.T, what string, b []byte) (facts *lang.Facts, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: decoding panicked: %v", what, r)
		}
	}()
	lang.DecodeSurfaces(b)
	return lang.Decode(b)
}

// checkReencode checks that facts the decoder accepted encode and decode to
// themselves (reflect.DeepEqual first: cmp.Diff is slow on the many cases
// that pass).
func checkReencode(t *testing.T, what string, f *lang.Facts) {
	t.Helper()
	back, err := lang.Decode(lang.Encode(f))
	if err != nil {
		t.Fatalf("%s: decoded facts do not encode: %v", what, err)
	}
	if !reflect.DeepEqual(f, back) {
		t.Fatalf("%s: decoded facts do not round-trip:\n%s", what, cmp.Diff(f, back))
	}
}

// A cut-short encoding, an unknown version or trailing bytes are refused
// with an error; a flipped bit never panics: the codec may read it as other
// facts (the store's checksums refuse those), which then encode and decode
// to themselves.
func TestDecodeRefusesDamage(t *testing.T) {
	names, encs := encodings(t)
	for _, name := range names {
		enc := encs[name]
		// Every length of small encodings, 512 lengths of large ones (and the
		// last few bytes, where the surfaces end), every bit of 128 bytes.
		cut, flip := max(1, len(enc)/512), max(1, len(enc)/128)
		for n := 0; n < len(enc); n += min(cut, max(1, len(enc)-8-n)) {
			if f, err := decode(t, name, enc[:n]); err == nil {
				t.Fatalf("%s: the first %d of %d bytes decoded: %+v", name, n, len(enc), f)
			}
		}
		if _, err := decode(t, name, append(bytes.Clone(enc), 0)); err == nil {
			t.Errorf("%s: decoded with a trailing byte", name)
		}
		wrong := bytes.Clone(enc)
		wrong[0]++
		if _, err := decode(t, name, wrong); err == nil {
			t.Errorf("%s: decoded with codec version %d", name, wrong[0])
		}
		for i := 0; i < len(enc); i += flip {
			for bit := range 8 {
				flipped := bytes.Clone(enc)
				flipped[i] ^= 1 << bit
				f, err := decode(t, name, flipped)
				if err != nil {
					continue
				}
				checkReencode(t, fmt.Sprintf("%s: byte %d bit %d", name, i, bit), f)
			}
		}
	}
	for _, b := range [][]byte{nil, {}, {2}, {2, 0xff}, {2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}} {
		if _, err := decode(t, "hand-made", b); err == nil {
			t.Errorf("Decode(%x) succeeded", b)
		}
	}
}

// FuzzDecode feeds the decoders arbitrary bytes (seeds in
// testdata/fuzz/FuzzDecode and from the edge cases): they never panic, and
// whatever Decode accepts encodes and decodes to itself.
func FuzzDecode(f *testing.F) {
	for name, facts := range edgeFacts() {
		if name != "largest values" { // megabytes: mutating them is slow
			f.Add(lang.Encode(facts))
			f.Add(lang.EncodeSurfaces(facts.Surfaces))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		facts, err := decode(t, "fuzz", b)
		if err != nil {
			return
		}
		checkReencode(t, "fuzz", facts)
	})
}

// Every stored enum names a value it does not know (one the codec read
// from a newer extractor, or from damage) instead of panicking.
func TestEnumNamesOutOfRange(t *testing.T) {
	got := []string{lang.DefKind(200).String(), lang.Visibility(200).String(), lang.Role(200).String(), lang.QualShape(200).String(),
		lang.ImportKind(200).String(), lang.RelKind(200).String(), lang.DynKind(200).String(), lang.SurfaceKind(200).String(),
		lang.Confidence(200).String()}
	want := []string{"unknown", "unknown", "reference", "expr", "module", "extends", "dynamic", "unknown", "low"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names of unknown values (-want +got):\n%s", diff)
	}
}
