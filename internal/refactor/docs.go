package refactor

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// maxDocHits bounds the mentions a plan lists (the total is still counted).
const maxDocHits = 200

// docExts are the documentation files the sweep reads as prose.
var docExts = map[string]string{".md": "markdown", ".mdx": "markdown", ".markdown": "markdown", ".rst": "text", ".txt": "text", ".adoc": "text"}

// docSweep finds the old name where no code refers to it: comments,
// strings and docstrings of code files, and documentation files. The
// plan's own edits, its candidates and every identifier the syntactic
// layer knows are code, not documentation, and are left out.
func (env *Env) docSweep(ctx context.Context, old, name string, card *query.SymbolCard, p *Plan) DocSweep {
	out := DocSweep{Hits: []DocHit{}}
	code := map[string]map[[2]int]bool{}
	mark := func(e Edit) {
		if code[e.Path] == nil {
			code[e.Path] = map[[2]int]bool{}
		}
		code[e.Path][[2]int{e.Line, e.Col}] = true
	}
	declared := map[string][]int{} // path -> lines of the declarations renamed
	for _, e := range p.Edits {
		mark(e)
		if e.Kind == "definition" {
			declared[e.Path] = append(declared[e.Path], e.Line)
		}
	}
	for _, g := range p.Groups {
		for _, e := range g.Edits {
			mark(e)
		}
	}
	cands, err := env.Snap.Store().TextCandidates(ctx, store.GlobLiteral(old), true, 1<<30)
	if err != nil {
		return out
	}
	qualified := ""
	if card.Parent != nil {
		qualified = card.Parent.Name + "." + old
	}
	for _, c := range cands {
		if ctx.Err() != nil {
			out.Truncated = true
			break
		}
		text, err := env.Snap.Store().BlobText(ctx, c.BlobID)
		if err != nil || text == nil {
			continue
		}
		// The trigram candidates hold the name as a substring; most files
		// have no whole-word mention outside the plan's own edits, and
		// decoding their facts would be the sweep's main cost.
		starts := lang.LineStarts(text)
		mentions := uncoveredMentions(text, starts, old, code[c.Path])
		if len(mentions) == 0 {
			continue
		}
		docComment := docCommentLines(text, starts, declared[c.Path])
		where, isDoc := docExts[strings.ToLower(path.Ext(c.Path))]
		var idents map[[2]int]bool
		if !isDoc {
			if c.Lang == "" {
				where = "text"
			} else {
				where = "comment_or_string"
				facts, err := env.Snap.Facts(ctx, c.BlobID)
				if err != nil || facts == nil {
					continue
				}
				idents = identPositions(facts)
			}
		}
		for _, k := range mentions {
			line, col := k[0], k[1]
			if idents[k] {
				continue
			}
			out.Total++
			if len(out.Hits) >= maxDocHits && !docComment[line] {
				out.Truncated = true // a declaration's doc comment is always listed: a rename may edit it
				continue
			}
			ctxLine := lineAt(text, starts, line)
			hit := DocHit{
				Edit:  Edit{Path: c.Path, Line: line, Col: col, EndLine: line, EndCol: col + len(old), Old: old, New: name, Kind: "doc", Layer: "text"},
				Where: where, Confidence: docConfidence(ctxLine, col-1, old, qualified), Context: strings.TrimSpace(clip(ctxLine, 160)),
			}
			if docComment[line] {
				hit.Where, hit.Confidence = "doc_comment", "high"
			}
			out.Hits = append(out.Hits, hit)
		}
	}
	sort.SliceStable(out.Hits, func(i, j int) bool {
		a, b := out.Hits[i], out.Hits[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// docCommentLines are the lines of the // comments that stand right above
// the declarations on the given lines (a Go doc comment), directives
// (//go:embed x) left out: their words are not prose.
func docCommentLines(text []byte, starts []int, decls []int) map[int]bool {
	if len(decls) == 0 {
		return nil
	}
	out := map[int]bool{}
	for _, d := range decls {
		for line := d - 1; line >= 1; line-- {
			comment, ok := strings.CutPrefix(strings.TrimSpace(lineAt(text, starts, line)), "//")
			if !ok {
				break
			}
			if !isDirective(comment) {
				out[line] = true
			}
		}
	}
	return out
}

// isDirective reports whether the text after // is a Go directive:
// //go:embed, //export f, //line x.go:1, //extern f, //nolint:x.
func isDirective(c string) bool {
	for _, p := range []string{"line ", "extern ", "export "} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	word, _, ok := strings.Cut(c, ":")
	if !ok || word == "" {
		return false
	}
	for _, b := range []byte(word) {
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9') {
			return false
		}
	}
	return true
}

// takeDocComments makes the mentions in the doc comments of the renamed
// declarations edits of the plan, for a language whose own rename edits
// them (lang.Language.RenamesDocComment); the other mentions stay listed.
func takeDocComments(p *Plan, layer map[string]string) {
	kept := p.Docs.Hits[:0]
	for _, h := range p.Docs.Hits {
		if h.Where != "doc_comment" {
			kept = append(kept, h)
			continue
		}
		p.Edits = append(p.Edits, h.Edit)
		p.Docs.Total--
		if layer[h.Path] == "" {
			layer[h.Path] = "text"
		}
	}
	p.Docs.Hits = kept
}

// uncoveredMentions lists the line and column of each whole-word use of
// name in text that is not one of the given code positions.
func uncoveredMentions(text []byte, starts []int, name string, code map[[2]int]bool) [][2]int {
	var out [][2]int
	for _, off := range wordOffsets(text, name) {
		line := sortSearch(starts, off)
		k := [2]int{line, off - starts[line-1] + 1}
		if !code[k] {
			out = append(out, k)
		}
	}
	return out
}

// identPositions are the places of a file the syntactic layer read as
// code: definitions' names and references.
func identPositions(f *lang.Facts) map[[2]int]bool {
	m := make(map[[2]int]bool, len(f.Refs)+len(f.Defs))
	for _, r := range f.Refs {
		m[[2]int{int(r.Pos.Line), int(r.Pos.Col)}] = true
	}
	for _, d := range f.Defs {
		m[[2]int{int(d.NameSpan.Start.Line), int(d.NameSpan.Start.Col)}] = true
	}
	return m
}

// sortSearch returns the 1-based line holding offset off.
func sortSearch(starts []int, off int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// wordOffsets returns where name occurs as a whole identifier.
func wordOffsets(text []byte, name string) []int {
	var out []int
	s := string(text)
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return out
		}
		at := i + j
		end := at + len(name)
		if (at == 0 || !lang.IsWordByte(s[at-1])) && (end == len(s) || !lang.IsWordByte(s[end])) {
			out = append(out, at)
		}
		i = at + 1
	}
}

// docConfidence rates a mention: high when it reads as code (in
// backticks, qualified by its owner, or called), low for a name that is
// also an everyday lower-case word, else medium.
func docConfidence(line string, at int, name, qualified string) string {
	before, after := line[:at], line[min(len(line), at+len(name)):]
	switch {
	case strings.Count(before, "`")%2 == 1,
		qualified != "" && strings.HasSuffix(before, strings.TrimSuffix(qualified, name)),
		strings.HasPrefix(after, "("):
		return "high"
	case strings.ToLower(name) == name:
		return "low"
	}
	return "medium"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
