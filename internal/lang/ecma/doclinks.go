package ecma

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// docLinks adds the names that JSDoc comments link to as references, the
// way the TypeScript language service resolves them: {@link X},
// {@linkcode X.m}, {@linkplain X text}, and the type of a block tag,
// @throws {X} or @param {X} name, when it is one name or a dotted one. A
// name counts where it names a top-level definition or an import of the
// file (a rename of X then changes the link); anything else, a URL or a
// member of no named type, stays prose for the documentation sweep.
func docLinks(v *lang.View, f *lang.Facts) {
	var top, imports map[string]int32
	var names *lang.NameTable
	var add []lang.Ref
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "comment" || !strings.HasPrefix(v.Text(n), "/**") {
			continue
		}
		text, at := v.Text(n), v.Start(n)
		for _, l := range linkedNames(text) {
			if top == nil {
				top, imports, names = f.TopDefs(), f.ImportByName(), lang.NewNameTable(f)
			}
			add = append(add, linkRefs(f, names, top, imports, l.name, offsetPos(text, at, l.at))...)
		}
	}
	if len(add) > 0 {
		f.Refs = append(f.Refs, add...)
		langutil.SortRefs(f)
	}
}

// linkRefs are the references of a linked name: X bound to the definition
// or import of that name, and the member m of X.m on X. None when X names
// neither.
func linkRefs(f *lang.Facts, names *lang.NameTable, top, imports map[string]int32, name string, at lang.Pos) []lang.Ref {
	head, member, dotted := strings.Cut(name, ".")
	r := lang.Ref{Name: names.ID(head), Pos: at, Enclosing: langutil.Enclosing(f, at), Scope: langutil.InnermostScope(f, at),
		BindLocal: -1, BindDef: -1, BindImp: -1}
	if d, ok := top[head]; ok {
		r.BindDef = d
	} else if im, ok := imports[head]; ok {
		r.BindImp = im
	} else {
		return nil
	}
	out := []lang.Ref{r}
	if dotted && lang.IsIdentifier(member) {
		m := r
		m.Name, m.Pos = names.ID(member), lang.Pos{Line: at.Line, Col: at.Col + uint32(len(head)) + 1}
		m.Shape, m.Qualifier = lang.QualIdent, names.ID(head)
		m.BindDef, m.QualBound = -1, r.BindDef >= 0
		out = append(out, m)
	}
	return out
}

// linked is a name a comment links to, at byte offset at of the comment.
type linked struct {
	name string
	at   int
}

// docTypeTags are the block tags whose {type} names a type.
var docTypeTags = []string{"@throws", "@throw", "@exception", "@param", "@arg", "@argument", "@returns", "@return", "@type", "@typedef", "@property", "@prop", "@template", "@yields", "@yield", "@augments", "@extends", "@implements", "@see"}

// linkedNames finds the names of a JSDoc comment's inline links and of its
// block tags' types: Name or Name.member, nothing longer.
func linkedNames(text string) []linked {
	var out []linked
	for i := 0; i < len(text); i++ {
		switch {
		case strings.HasPrefix(text[i:], "{@link"):
			j := i + len("{@link")
			for _, suffix := range []string{"code", "plain"} {
				if strings.HasPrefix(text[j:], suffix) {
					j += len(suffix)
					break
				}
			}
			if j >= len(text) || (text[j] != ' ' && text[j] != '\t') {
				continue
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if name, ok := dottedName(text[j:], "} |\t\n"); ok {
				out = append(out, linked{name, j})
			}
		case text[i] == '@':
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '{' && text[j] != '\n' {
				j++
			}
			if !isTypeTag(text[i:j]) {
				continue
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j < len(text) && text[j] == '{' {
				if name, ok := dottedName(text[j+1:], "}"); ok {
					out = append(out, linked{name, j + 1})
				}
			}
		}
	}
	return out
}

func isTypeTag(tag string) bool {
	for _, t := range docTypeTags {
		if tag == t {
			return true
		}
	}
	return false
}

// dottedName is the identifier or Name.member at the start of s when one
// of the bytes of ends follows it.
func dottedName(s, ends string) (string, bool) {
	end := 0
	dots := 0
	for end < len(s) && !strings.ContainsRune(ends, rune(s[end])) {
		if s[end] == '.' {
			dots++
		}
		end++
	}
	if end == len(s) || dots > 1 {
		return "", false
	}
	name := s[:end]
	head, member, dotted := strings.Cut(name, ".")
	if !lang.IsIdentifier(head) || dotted && !lang.IsIdentifier(member) {
		return "", false
	}
	return name, true
}

// offsetPos is the position of byte offset off of a comment at start.
func offsetPos(text string, start lang.Pos, off int) lang.Pos {
	line := strings.Count(text[:off], "\n")
	if line == 0 {
		return lang.Pos{Line: start.Line, Col: start.Col + uint32(off)}
	}
	return lang.Pos{Line: start.Line + uint32(line), Col: uint32(off - strings.LastIndexByte(text[:off], '\n'))}
}
