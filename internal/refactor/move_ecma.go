package refactor

import (
	"context"
	"path"
	"strings"
)

// ecmaExts are the extensions a relative specifier may leave out, in the
// order resolution tries them.
var ecmaExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"}

func isECMAPath(p string) bool {
	for _, e := range ecmaExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// specStyle is how a specifier names its file, kept when it is rewritten.
type specStyle int

const (
	styleExact specStyle = iota // ./util.ts
	styleNoExt                  // ./util
	styleJSExt                  // ./util.js for util.ts (ESM)
	styleIndex                  // ./dir for dir/index.ts
)

// resolveSpec resolves a relative specifier of the file at from against the
// indexed files (exists), returning the file and the style it was written in.
func resolveSpec(from, spec string, exists func(string) bool) (string, specStyle, bool) {
	base := path.Join(path.Dir(from), spec)
	if exists(base) && isECMAPath(base) {
		return base, styleExact, true
	}
	for _, e := range ecmaExts {
		if exists(base + e) {
			return base + e, styleNoExt, true
		}
	}
	for _, js := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if stem, ok := strings.CutSuffix(base, js); ok {
			for _, ts := range []string{".ts", ".tsx", ".mts", ".cts"} {
				if exists(stem + ts) {
					return stem + ts, styleJSExt, true
				}
			}
		}
	}
	for _, e := range ecmaExts {
		if exists(base + "/index" + e) {
			return base + "/index" + e, styleIndex, true
		}
	}
	return "", 0, false
}

// specFor writes the specifier from the file at from to the file target in
// a style.
func specFor(from, target string, style specStyle) string {
	t := target
	switch style {
	case styleNoExt:
		t = stripECMAExt(t)
	case styleJSExt:
		stem := stripECMAExt(t)
		ext := strings.TrimPrefix(t, stem)
		t = stem + map[string]string{".ts": ".js", ".tsx": ".jsx", ".mts": ".mjs", ".cts": ".cjs"}[ext]
	case styleIndex:
		if strings.HasPrefix(path.Base(t), "index.") {
			t = path.Dir(t)
		} else {
			t = stripECMAExt(t)
		}
	}
	rel := relPath(path.Dir(from), t)
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

func stripECMAExt(p string) string {
	for _, e := range []string{".d.ts", ".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(p, e); ok {
			return s
		}
	}
	return p
}

// relPath is the slash path of target relative to the directory dir.
func relPath(dir, target string) string {
	if dir == "." {
		return target
	}
	d, t := strings.Split(dir, "/"), strings.Split(target, "/")
	i := 0
	for i < len(d) && i < len(t)-1 && d[i] == t[i] {
		i++
	}
	return strings.Repeat("../", len(d)-i) + strings.Join(t[i:], "/")
}

// moveECMA rewrites the relative import specifiers that name a moved file,
// and those of the moved files themselves, keeping each one's style.
func (env *Env) moveECMA(ctx context.Context, p *Plan, ms moveSet) error {
	var needles []string
	any := false
	for f := range ms {
		if isECMAPath(f) {
			any = true
			b := stripECMAExt(path.Base(f))
			if b == "index" {
				b = path.Base(path.Dir(f))
			}
			needles = append(needles, b)
		}
	}
	if !any {
		return nil
	}
	sites, err := env.importers(ctx, needles, ms, isECMAPath)
	if err != nil {
		return err
	}
	exists := func(q string) bool {
		row, ok, err := env.Snap.Store().FileByPath(ctx, q)
		return err == nil && ok && row.Path == q
	}
	for _, site := range sites {
		f, data, starts := site.path, site.data, site.starts
		for _, im := range site.facts.Imports {
			if !strings.HasPrefix(im.Source, "./") && !strings.HasPrefix(im.Source, "../") && im.Source != "." && im.Source != ".." {
				continue
			}
			target, style, ok := resolveSpec(f, im.Source, exists)
			if !ok {
				continue
			}
			_, movedTarget := ms[target]
			_, movedSelf := ms[f]
			if !movedTarget && !movedSelf {
				continue
			}
			spec := specFor(ms.target(f), ms.target(target), style)
			if spec == im.Source {
				continue
			}
			off := posOffset(data, starts, im.Pos)
			if off < 0 {
				continue
			}
			// The literal may stand before the position (import x = require)
			// or after it (import {a} from).
			at := quotedAfter(data, starts[int(im.Pos.Line)-1], im.Source)
			if at < 0 {
				at = quotedAfter(data, off, im.Source)
			}
			if at < 0 {
				p.Warnings = append(p.Warnings, f+": the specifier "+im.Source+" was not found in the file's text; left alone")
				continue
			}
			p.Edits = append(p.Edits, editAt(f, starts, at, im.Source, spec, "import_path"))
		}
	}
	return nil
}
