package query

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// Calls no symbol of the repository answers: the language's builtins, and
// calls through an import, classified as the import resolver classified
// the import (standard library, a declared dependency, elsewhere).

// Origins of a call that leaves the repository.
const (
	OriginStdlib     = "stdlib"     // the language's standard library or runtime
	OriginDependency = "dependency" // a dependency the module's manifest declares
	OriginExternal   = "external"   // outside the repository, undeclared, or known to the semantic layer only
)

// Outside classifies the calls of one file that no repository symbol answers.
type Outside struct {
	lang    *lang.Language
	facts   *lang.Facts
	classes map[string]string // import source -> class of its import edge
}

// OutsideCall says where a call goes outside the repository.
type OutsideCall struct {
	Builtin bool   // a builtin of the language (len, print, parseInt)
	Origin  string // stdlib, dependency or external; "" when not known
	Import  string // the import the call goes through
}

// Outside reads what classifying a file's calls takes: its import edges.
func (e *Engine) Outside(ctx context.Context, f store.FileRow, facts *lang.Facts) (*Outside, error) {
	o := &Outside{lang: lang.ByName(f.Lang), facts: facts, classes: map[string]string{}}
	if facts == nil || len(facts.Imports) == 0 {
		return o, nil
	}
	edges, err := e.ImportsOf(ctx, f.ID)
	if err != nil {
		return o, nil // an undecodable row: the calls stay unclassified
	}
	for _, ed := range edges {
		o.classes[ed.Source] = ed.Class
	}
	return o, nil
}

// Call classifies a call that no repository symbol answers: a builtin (a
// bare name the language defines that binds to nothing in the file), a call
// through an import (the import names the qualifier's first name, or the
// bare name), or a member of a builtin object (JSON.parse).
func (o *Outside) Call(ref lang.Ref) OutsideCall {
	if o == nil || o.facts == nil || ref.BindLocal >= 0 || ref.BindDef >= 0 {
		return OutsideCall{}
	}
	f := o.facts
	name := f.Names[ref.Name]
	head := name
	switch ref.Shape {
	case lang.QualNone:
		if ref.BindImp >= 0 && int(ref.BindImp) < len(f.Imports) {
			return o.through(f.Imports[ref.BindImp])
		}
	case lang.QualIdent, lang.QualPath:
		if ref.QualBound {
			return OutsideCall{}
		}
		head, _, _ = strings.Cut(f.Names[ref.Qualifier], ".")
	default:
		return OutsideCall{}
	}
	for _, im := range f.Imports {
		if im.Kind != lang.ImportAll && im.Kind != lang.ImportSideEffect && o.importName(im) == head {
			return o.through(im)
		}
	}
	if o.lang == nil || !o.lang.Builtins[head] {
		return OutsideCall{}
	}
	if ref.Shape != lang.QualNone {
		return OutsideCall{Origin: OriginStdlib}
	}
	if _, dyn := o.lang.DynamicCalls[name]; dyn {
		return OutsideCall{} // getattr, eval: a name chosen at run time, not noise
	}
	return OutsideCall{Builtin: true}
}

// importName is the name an import binds in the file.
func (o *Outside) importName(im lang.Import) string {
	if n := im.LocalName(); n != "" || o.lang == nil || o.lang.ImportName == nil {
		return n
	}
	return o.lang.ImportName(im)
}

// through classifies a call through an import by the import's edge.
func (o *Outside) through(im lang.Import) OutsideCall {
	c := OutsideCall{Import: im.Source}
	switch o.classes[im.Source] {
	case index.EdgeStdlib:
		c.Origin = OriginStdlib
	case index.EdgeExternal:
		c.Origin = OriginDependency
	case index.EdgeUnknown:
		c.Origin = OriginExternal
	}
	return c
}

// Receiver is what stands before a member call, as written (client,
// s.store, time.Since(start), self); "" for a bare name.
func Receiver(f *lang.Facts, r lang.Ref) string {
	if r.Shape == lang.QualNone {
		return ""
	}
	q := f.Names[r.Qualifier]
	switch {
	case q == "" && r.Shape == lang.QualSelf:
		return "self"
	case q == "":
		return "(…)"
	case r.Shape == lang.QualCall && !strings.HasSuffix(q, ")"):
		return q + "()"
	}
	return q
}
