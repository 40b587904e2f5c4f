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
	nf := &FilePaths{Paths: map[string]int64{}, Kinds: map[string]lang.DefKind{}, Names: map[string]bool{}, Other: map[string]int64{}}
	s.files[p] = nf
	if _, ok := s.r.File(p); !ok {
		return nf
	}
	rows := s.r.Symbols(ctx, p)
	aliases := map[string]int64{}
	for _, r := range rows {
		lp := strings.TrimPrefix(r.QName, p+"#")
		if _, ok := nf.Paths[lp]; ok {
			if _, seen := nf.Other[lp]; !seen && Called(r.Kind) != Called(nf.Kinds[lp]) {
				nf.Other[lp] = r.ID
			}
			continue
		}
		nf.Paths[lp] = r.ID
		nf.Kinds[lp] = r.Kind
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
	out := make(map[string]int64, len(facts.Defs))
	for i, d := range facts.Defs {
		if _, ok := out[d.Path]; !ok {
			out[d.Path] = link.DefID(own, int32(i))
		}
	}
	for i, d := range facts.Defs {
		if d.Kind == lang.KindEnumMember {
			if a := enumAlias(d.Path); a != "" {
				if _, ok := out[a]; !ok {
					out[a] = link.DefID(own, int32(i))
				}
			}
		}
	}
	return out
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
