package query

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
)

// A symbol is also used under names its importers give it: import { a as
// b } (b), and, for the definition a module exports as a whole, import X
// from "./m" and const X = require("./m") (X). Those uses carry another
// name than the symbol's, so the name postings that find its references do
// not lead to them. aliasRefs follows the imports instead: a renamed
// import names the symbol, so the search by its name meets it
// (renamedImport); a default one names the module, whose file name is the
// last word of the import's source, which the importing files post; the
// uses of each local name there that are linked to the symbol are its
// references.

// alias is a local name one file gives a symbol through an import.
type alias struct {
	fileID int64
	local  string
}

// renamedImport is the alias that the imported name ref of file nf binds,
// where an import renames name (import { name as b }).
func renamedImport(nf *NameFile, ref lang.Ref, name string) (alias, bool) {
	if ref.Role != lang.RoleImport || ref.BindImp < 0 || int(ref.BindImp) >= len(nf.Facts.Imports) {
		return alias{}, false
	}
	im := nf.Facts.Imports[ref.BindImp]
	if im.Name != name || im.Alias == "" || im.Alias == name {
		return alias{}, false
	}
	return alias{nf.File.ID, im.Alias}, true
}

// aliasRefs lists the references to r, in any of match, spelled with a
// name an import gives it: renamed are the aliases of renamed imports the
// search by r's name met, and the default imports of r's module are found
// here.
func (e *Engine) aliasRefs(ctx context.Context, r *Resolved, renamed []alias, match map[int64]bool, late func() bool) ([]synRef, error) {
	defaults, err := e.defaultImports(ctx, r)
	if err != nil {
		return nil, err
	}
	var out []synRef
	seen := map[alias]bool{}
	for _, a := range append(renamed, defaults...) {
		if seen[a] {
			continue
		}
		seen[a] = true
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

// defaultImports lists the local names that the default and whole-module
// imports of r's module give it, when r is the module's default export:
// in the files whose imports name the module's file.
func (e *Engine) defaultImports(ctx context.Context, r *Resolved) ([]alias, error) {
	f := r.Facts
	if r.Row.Parent != 0 || f == nil || r.Def == nil || f.DefaultExport <= 0 || int(f.DefaultExport) > len(f.Defs) ||
		f.Defs[f.DefaultExport-1].NameSpan != r.Def.NameSpan {
		return nil, nil
	}
	stem := lang.ModuleStem(r.File.Path)
	cands, err := e.Store().NameCandidates(ctx, stem)
	if err != nil {
		return nil, err
	}
	var out []alias
	for _, c := range e.ovTextHits(cands, nil) {
		if c.Lang == "" || LangFamily(c.Lang) != LangFamily(r.File.Lang) {
			continue
		}
		_, facts, err := e.fileFacts(ctx, c.FileID)
		if err != nil || facts == nil {
			continue
		}
		for _, im := range facts.Imports {
			whole := im.Kind == lang.ImportDefault || im.Kind == lang.ImportModule && im.Alias != ""
			if whole && lang.ModuleStem(im.Source) == stem && im.LocalName() != r.Row.Name {
				out = append(out, alias{c.FileID, im.LocalName()})
			}
		}
	}
	return out, nil
}
