package query

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
)

// A symbol is also used under names its importers give it: import { a as
// b } (b), and, for the definition a module exports as a whole, import X
// from "./m" and const X = require("./m") (X). Those uses carry another
// name than the symbol's, so the name postings that find its references do
// not lead to them. aliasRefs follows the imports instead: the importing
// files post the imported name, or the source of the import (whose last
// word is the module's file name), and the uses of each local name there
// that are linked to the symbol are its references.

// alias is a local name one file gives a symbol through an import.
type alias struct {
	fileID int64
	local  string
}

// aliasRefs lists the references to r, in any of match, spelled with a
// name an import gives it.
func (e *Engine) aliasRefs(ctx context.Context, r *Resolved, match map[int64]bool, late func() bool) ([]synRef, error) {
	aliases, err := e.importAliases(ctx, r)
	if err != nil || len(aliases) == 0 {
		return nil, err
	}
	var out []synRef
	for _, a := range aliases {
		if late() {
			break
		}
		nf, err := e.NameFileOf(ctx, a.fileID, a.local)
		if err != nil || nf == nil {
			continue
		}
		for ri, ref := range nf.Facts.Refs {
			l, linked := nf.Links[ri]
			if int(ref.Name) != nf.NameID || !linked || !match[l.Target] {
				continue
			}
			s := synRef{foundRef: foundRef{loc: RefLocation{Location: RefLoc(nf.File.Path, ref.Pos, a.local), Kind: ref.Role.String(),
				Layer: LayerSyntactic, Tier: l.Tier.String()}, module: nf.File.ModuleID, shape: ShapeKey(nf.Facts, ref)},
				size: nf.File.Size, family: LangFamily(nf.File.Lang), status: synMatch, target: l.Target}
			if ref.Enclosing >= 0 {
				s.loc.Enclosing = nf.Facts.Defs[ref.Enclosing].Path
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// importAliases lists the other names the importers of r give it: renamed
// imports of its name and, when r is its module's default export, the
// default and whole-module imports of the files whose imports name its
// module's file.
func (e *Engine) importAliases(ctx context.Context, r *Resolved) ([]alias, error) {
	if r.Row.Parent != 0 || r.Facts == nil {
		return nil, nil // only a module's top-level definitions are imported
	}
	name := r.Row.Name
	seen := map[alias]bool{}
	var out []alias
	add := func(a alias) {
		if a.local != "" && a.local != name && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	collect := func(term string, keep func(im lang.Import) bool) error {
		cands, err := e.Store().NameCandidates(ctx, term)
		if err != nil {
			return err
		}
		for _, c := range e.ovTextHits(cands, nil) {
			if c.Lang == "" || LangFamily(c.Lang) != LangFamily(r.File.Lang) {
				continue
			}
			_, facts, err := e.fileFacts(ctx, c.FileID)
			if err != nil || facts == nil {
				continue
			}
			for _, im := range facts.Imports {
				if keep(im) {
					add(alias{c.FileID, im.LocalName()})
				}
			}
		}
		return nil
	}
	if err := collect(name, func(im lang.Import) bool { return im.Name == name && im.Alias != "" }); err != nil {
		return nil, err
	}
	if d := r.Facts.DefaultExport; d > 0 && int(d) <= len(r.Facts.Defs) && r.Def != nil && r.Facts.Defs[d-1].NameSpan == r.Def.NameSpan {
		stem := lang.ModuleStem(r.File.Path)
		err := collect(stem, func(im lang.Import) bool {
			whole := im.Kind == lang.ImportDefault || im.Kind == lang.ImportModule && im.Alias != ""
			return whole && lang.ModuleStem(im.Source) == stem
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
