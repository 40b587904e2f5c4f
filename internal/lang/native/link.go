package native

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// What the Linker hooks of Rust, C and C++ share: the symbols of a file by
// lexical path, where an enumerator also answers to its enum's scope (C's
// enumerators are global names, e.RED is RED), and joining lexical paths.

// FilePaths is what linking needs of another file: its symbols by lexical path.
type FilePaths struct {
	Paths map[string]int64
	Kinds map[string]lang.DefKind
	Names map[string]bool // the last segments of the paths
	// Other holds, for a path that a field and a method share (a getter
	// named after its field: Rust's span and span()), the one Paths does
	// not: a call names the method, a read the field.
	Other map[string]int64
}

// Called reports whether a definition of the kind is named by a call.
func Called(k lang.DefKind) bool { return k == lang.KindMethod || k == lang.KindFunction }

// Symbols keeps the symbols of the files a batch looks at.
type Symbols struct {
	r     lang.Resolver
	files map[string]*FilePaths
}

// NewSymbols starts an empty cache.
func NewSymbols(r lang.Resolver) *Symbols { return &Symbols{r: r, files: map[string]*FilePaths{}} }

// Of is the symbols of a file by lexical path.
func (s *Symbols) Of(ctx context.Context, p string) *FilePaths {
	if nf, ok := s.files[p]; ok {
		return nf
	}
	nf := newFilePaths()
	s.files[p] = nf
	if _, ok := s.r.File(p); !ok {
		return nf
	}
	rows := s.r.Symbols(ctx, p)
	aliases := map[string]int64{}
	for _, r := range rows {
		lp := strings.TrimPrefix(r.QName, p+"#")
		if !nf.add(lp, r.ID, r.Kind) {
			continue
		}
		if r.Kind == lang.KindEnumMember {
			if a := enumAlias(lp); a != "" {
				aliases[a] = r.ID
			}
		}
	}
	for a, id := range aliases {
		if _, ok := nf.Paths[a]; !ok {
			nf.Paths[a] = id
		}
	}
	for p := range nf.Paths {
		nf.Names[LastSegment(p)] = true
	}
	return nf
}

func newFilePaths() *FilePaths {
	return &FilePaths{Paths: map[string]int64{}, Kinds: map[string]lang.DefKind{}, Names: map[string]bool{}, Other: map[string]int64{}}
}

// add records symbol id of the kind at lexical path lp and reports whether
// the path is new: the first symbol of a path holds it, and a method that
// shares a field's path (or a field a method's) is kept in Other.
func (fp *FilePaths) add(lp string, id int64, kind lang.DefKind) bool {
	if _, ok := fp.Paths[lp]; ok {
		if _, seen := fp.Other[lp]; !seen && Called(kind) != Called(fp.Kinds[lp]) {
			fp.Other[lp] = id
		}
		return false
	}
	fp.Paths[lp], fp.Kinds[lp] = id, kind
	return true
}

// enumAlias is the path an enumerator also answers to: e.RED is RED, ns.e.RED is ns.RED.
func enumAlias(p string) string {
	segs := strings.Split(p, ".")
	if len(segs) < 2 {
		return ""
	}
	return strings.Join(append(segs[:len(segs)-2:len(segs)-2], segs[len(segs)-1]), ".")
}

// OwnPaths maps the lexical paths of a file's definitions to their ids, with
// enumerator aliases; own holds the ids in definition order.
func OwnPaths(facts *lang.Facts, own []int64) map[string]int64 {
	return OwnFilePaths(facts, own).Paths
}

// OwnFilePaths is a file's own definitions as FilePaths (Names left empty):
// their ids by lexical path, with enumerator aliases, their kinds, and the
// methods that share a path with a field.
func OwnFilePaths(facts *lang.Facts, own []int64) *FilePaths {
	fp := newFilePaths()
	for i, d := range facts.Defs {
		fp.add(d.Path, link.DefID(own, int32(i)), d.Kind)
	}
	for i, d := range facts.Defs {
		if d.Kind == lang.KindEnumMember {
			if a := enumAlias(d.Path); a != "" {
				if _, ok := fp.Paths[a]; !ok {
					fp.Paths[a] = link.DefID(own, int32(i))
				}
			}
		}
	}
	return fp
}

// ParentPath is the lexical path around p, "" at the top.
func ParentPath(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

// JoinDot joins two lexical paths, either of which may be empty.
func JoinDot(a, b string) string { return Join(a, b, ".") }

// Join joins two paths with sep between them; either may be empty.
func Join(a, b, sep string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + sep + b
}

// LastSegment is the last element of a lexical path.
func LastSegment(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return p
}
