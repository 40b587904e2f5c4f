// Package native holds what the hooks of Rust, C and C++ share beyond
// package langutil: tree navigation over a lang.View, a writable name table,
// and the clean-ups of Refine that rewrite definitions' paths, drop
// references and rebind names after the engine has extracted a file's facts.
package native

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// PrevSibling is the named sibling just before n, or -1. It costs the size of
// that sibling's subtree.
func PrevSibling(v *lang.View, n int) int {
	p := v.Parent(n)
	for j := n - 1; j > p; j-- {
		if v.Parent(j) == p {
			return j
		}
	}
	return -1
}

// Ancestor is the nearest ancestor of n with one of the kinds, or -1.
func Ancestor(v *lang.View, n int, kinds ...string) int {
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		k := v.Kind(p)
		for _, want := range kinds {
			if k == want {
				return p
			}
		}
	}
	return -1
}

// DropRefsIn removes the references that lie inside one of the spans.
func DropRefsIn(f *lang.Facts, spans []lang.Span) {
	if len(spans) == 0 {
		return
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start.Before(spans[j].Start) })
	refs := f.Refs[:0]
	for _, r := range f.Refs {
		// the last span starting at or before r
		k := sort.Search(len(spans), func(i int) bool { return r.Pos.Before(spans[i].Start) }) - 1
		if k >= 0 && spans[k].Contains(r.Pos) {
			continue
		}
		inside := false
		for j := k - 1; j >= 0 && j >= k-4; j-- { // nested or overlapping spans are few
			if spans[j].Contains(r.Pos) {
				inside = true
				break
			}
		}
		if !inside {
			refs = append(refs, r)
		}
	}
	f.Refs = refs
}

// DemoteLocals turns the locals for which drop is true back into references
// (a pattern's upper-case name is a constant or a variant, not a binding):
// references bound to them are rebound by rebind, and each dropped local
// becomes a read reference at its position, bound the same way.
func DemoteLocals(f *lang.Facts, drop func(lo lang.Local) bool, rebind func(r *lang.Ref)) {
	var demoted []lang.Local
	for _, lo := range f.Locals {
		if drop(lo) {
			demoted = append(demoted, lo)
		}
	}
	if len(demoted) == 0 {
		return
	}
	langutil.DropLocals(f, func(i int) bool { return drop(f.Locals[i]) }, rebind)
	for _, lo := range demoted {
		r := lang.Ref{Name: lo.Name, Pos: lo.Pos, Enclosing: langutil.Enclosing(f, lo.Pos), Scope: langutil.InnermostScope(f, lo.Pos),
			BindLocal: -1, BindDef: -1, BindImp: -1}
		rebind(&r)
		f.Refs = append(f.Refs, r)
	}
	langutil.SortRefs(f)
}

// StartsUpper reports whether s begins with an upper-case letter.
func StartsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// DocText strips comment markers (//, ///, //!, /*, /**, */ and leading *)
// from comment text and returns the summary the engine would give.
func DocText(parts []string) string {
	var lines []string
	for _, p := range parts {
		for _, ln := range strings.Split(p, "\n") {
			ln = strings.TrimSpace(ln)
			for _, pre := range []string{"///", "//!", "//", "/**", "/*!", "/*"} {
				if strings.HasPrefix(ln, pre) {
					ln = ln[len(pre):]
					break
				}
			}
			ln = strings.TrimSuffix(ln, "*/")
			ln = strings.TrimSpace(ln)
			if ln == "*" {
				ln = ""
			}
			ln = strings.TrimPrefix(ln, "* ")
			lines = append(lines, strings.TrimSpace(ln))
		}
	}
	return lang.Summary(strings.Join(lines, "\n"))
}

// Signature is the engine's signature rule (the definition's text up to its
// body, whitespace collapsed) with the comments cut out.
func Signature(v *lang.View, n int, body map[string]bool, comment string) string {
	_, stop := v.Bytes(n)
	head := langutil.Head(v, n, stop, body, func(k string) bool { return k == comment })
	sig := strings.NewReplacer("( ", "(", " )", ")").Replace(lang.CollapseSpace(head))
	return lang.Truncate(strings.TrimSpace(strings.TrimSuffix(sig, ";")), lang.MaxSignature)
}
