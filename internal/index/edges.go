package index

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// EdgeKind is the kind of an edge between two symbols (store.EdgeRow.Kind).
type EdgeKind uint8

// Edge kinds; stored, append-only. The type relations follow lang.RelKind.
const (
	EdgeCall       EdgeKind = iota // src calls dst
	EdgeExtends                    // src extends dst
	EdgeImplements                 // src implements dst
	EdgeEmbeds                     // src embeds dst (Go struct and interface embedding)
)

var edgeKindNames = [...]string{"call", "extends", "implements", "embeds"}

func (k EdgeKind) String() string {
	if int(k) < len(edgeKindNames) {
		return edgeKindNames[k]
	}
	return "call"
}

// TypeEdgeKinds are the kinds of type relations, as store arguments.
var TypeEdgeKinds = []uint8{uint8(EdgeExtends), uint8(EdgeImplements), uint8(EdgeEmbeds)}

// fileEdges derives a file's edges from its resolved references: a call
// whose innermost enclosing definition is a symbol (the caller) and whose
// target resolved (proven or strong) is an edge caller -> callee, counted
// per pair with the best tier and the first site; a type relation whose
// target resolved is an edge subtype -> supertype. own holds the file's
// symbols in definition order; links is sorted by reference.
func fileEdges(facts *lang.Facts, own []store.SymbolRow, links []Link) []store.EdgeRow {
	if facts == nil || len(links) == 0 {
		return nil
	}
	type key struct {
		src, dst int64
		kind     EdgeKind
	}
	at := map[key]int{}
	var out []store.EdgeRow
	add := func(enc int32, dst int64, kind EdgeKind, tier Tier, p lang.Pos) {
		if enc < 0 || int(enc) >= len(own) || dst == 0 {
			return
		}
		k := key{own[enc].ID, dst, kind}
		if i, ok := at[k]; ok {
			e := &out[i]
			e.Count++
			if uint8(tier) < e.Tier {
				e.Tier = uint8(tier)
			}
			return
		}
		at[k] = len(out)
		out = append(out, store.EdgeRow{Src: k.src, Dst: dst, Kind: uint8(kind), Tier: uint8(tier), Count: 1, Line: int(p.Line), Col: int(p.Col)})
	}
	for _, l := range links {
		if l.Ref >= len(facts.Refs) {
			continue
		}
		r := facts.Refs[l.Ref]
		if r.Role == lang.RoleCall || l.Runs {
			add(r.Enclosing, l.Target, EdgeCall, l.Tier, r.Pos)
		}
	}
	for _, t := range facts.TypeRels {
		p, ok := typeRelNamePos(t)
		if !ok {
			continue
		}
		i := sort.Search(len(links), func(i int) bool {
			return l(facts, links, i).Pos.Line > p.Line || (l(facts, links, i).Pos.Line == p.Line && l(facts, links, i).Pos.Col >= p.Col)
		})
		if i < len(links) && l(facts, links, i).Pos == p {
			add(t.Def, links[i].Target, EdgeKind(1+t.Kind), links[i].Tier, t.Pos)
		}
	}
	return out
}

// l is the reference of the i-th link.
func l(facts *lang.Facts, links []Link, i int) lang.Ref { return facts.Refs[links[i].Ref] }

// typeRelNamePos finds where the name of a relation's target type starts:
// the last identifier before any type arguments (Base in *pkg.Base[T],
// Visitor in ast::Visitor), assuming the target is written on one line.
func typeRelNamePos(t lang.TypeRel) (lang.Pos, bool) {
	head := t.Target
	if i := strings.IndexAny(head, "[<("); i >= 0 {
		head = head[:i]
	}
	head = strings.TrimRight(head, " ")
	start := strings.LastIndexAny(head, ".*&: ") + 1
	if start >= len(head) || strings.ContainsAny(t.Target[:start], "\n") {
		return lang.Pos{}, false
	}
	return lang.Pos{Line: t.Pos.Line, Col: t.Pos.Col + uint32(start)}, true
}
