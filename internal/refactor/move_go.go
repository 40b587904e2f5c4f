package refactor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// goModule finds the go.mod owning a directory (repo path): its directory
// and module path.
func (env *Env) goModule(dir string) (modDir, modPath string, ok bool) {
	for d := dir; ; d = path.Dir(d) {
		data, err := os.ReadFile(filepath.Join(env.Paths.Root, filepath.FromSlash(d), "go.mod"))
		if err == nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return d, strings.Trim(strings.TrimSpace(rest), `"`), true
				}
			}
			return "", "", false
		}
		if d == "." || d == "" || d == "/" {
			return "", "", false
		}
	}
}

// importPath is the import path of a package directory in a module.
func importPath(modDir, modPath, dir string) string {
	if dir == modDir {
		return modPath
	}
	rel := dir
	if modDir != "." {
		rel = strings.TrimPrefix(dir, modDir+"/")
	}
	return modPath + "/" + rel
}

var goIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// packageClause matches a Go file's package clause.
var packageClause = regexp.MustCompile(`(?m)^package[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)

// pkgRename is a package whose import path (and maybe name) a move changes.
type pkgRename struct {
	oldPath, newPath string
	oldName, newName string // equal when the name stays
}

// moveGo updates Go for a move: a directory is a package move (its import
// path changes in every importer, and its package clause follows its new
// directory name when it followed the old one); a file keeps its package,
// so it may only be renamed within its directory.
func (env *Env) moveGo(ctx context.Context, p *Plan, ms moveSet, isDir bool) error {
	var goFiles []string
	for f := range ms {
		if strings.HasSuffix(f, ".go") {
			goFiles = append(goFiles, f)
		}
	}
	if len(goFiles) == 0 {
		return nil
	}
	sort.Strings(goFiles)
	if !isDir {
		if path.Dir(goFiles[0]) != path.Dir(ms[goFiles[0]]) {
			return &errs.Error{Kind: errs.Precondition, Path: goFiles[0],
				Msg:     fmt.Sprintf("cannot move %s to another directory: in Go a directory is a package, so the file's declarations would change package and every use of them would break", goFiles[0]),
				Details: map[string]any{"reason": "go_file_changes_package"},
				Fixes:   []string{"rename it within its directory", "move the whole directory (a package move)"}}
		}
		return nil // same package, other file name: nothing refers to file names
	}
	modDir, modPath, ok := env.goModule(path.Dir(goFiles[0]))
	if !ok {
		p.Warnings = append(p.Warnings, "no go.mod above "+p.From+": Go imports were not updated")
		return nil
	}
	newMod, _, ok := env.goModule(nearestExisting(env.Paths.Root, path.Dir(ms[goFiles[0]])))
	if !ok || newMod != modDir {
		return &errs.Error{Kind: errs.Precondition, Path: p.To,
			Msg:     fmt.Sprintf("cannot move %s to %s: it would leave module %s (%s)", p.From, p.To, modPath, path.Join(modDir, "go.mod")),
			Details: map[string]any{"reason": "go_module_change"}}
	}
	renames := map[string]*pkgRename{} // by old import path
	dirFiles := map[string][]string{}
	for _, f := range goFiles {
		dirFiles[path.Dir(f)] = append(dirFiles[path.Dir(f)], f)
	}
	for dir, files := range dirFiles {
		newDir := path.Dir(ms[files[0]])
		r := &pkgRename{oldPath: importPath(modDir, modPath, dir), newPath: importPath(modDir, modPath, newDir)}
		for _, f := range files {
			ix, err := env.load(ctx, f)
			if err == nil && ix != nil && ix.row.Pkg != "" && !strings.HasSuffix(ix.row.Pkg, "_test") {
				r.oldName = ix.row.Pkg
				break
			}
		}
		r.newName = r.oldName
		if r.oldName == path.Base(dir) && path.Base(newDir) != path.Base(dir) {
			if nb := path.Base(newDir); goIdent.MatchString(nb) && r.oldName != "main" {
				r.newName = nb
			} else if r.oldName != "main" {
				p.Warnings = append(p.Warnings, fmt.Sprintf("package %s keeps its name: %q is not a Go package name", r.oldName, nb))
			}
		}
		renames[r.oldPath] = r
		if r.newName != r.oldName {
			for _, f := range files {
				env.clauseEdit(p, f, r.oldName, r.newName)
			}
		}
	}
	needles := make([]string, 0, len(renames))
	for ip := range renames {
		needles = append(needles, `"`+ip+`"`)
	}
	sites, err := env.importers(ctx, needles, ms, func(f string) bool { return strings.HasSuffix(f, ".go") })
	if err != nil {
		return err
	}
	for _, site := range sites {
		f, data, starts := site.path, site.data, site.starts
		for _, im := range site.facts.Imports {
			r := renames[im.Source]
			if r == nil {
				continue
			}
			off := posOffset(data, starts, im.Pos)
			if off < 0 {
				continue
			}
			at := quotedAfter(data, off, im.Source)
			if at < 0 {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s:%d: import of %s not found in the file's text; left alone", f, im.Pos.Line, im.Source))
				continue
			}
			p.Edits = append(p.Edits, editAt(f, starts, at, im.Source, r.newPath, "import_path"))
			if im.Alias == "" && r.newName != r.oldName {
				p.Edits = append(p.Edits, qualifierEdits(f, data, site.facts, r.oldName, r.newName)...)
			}
		}
	}
	return nil
}

// clauseEdit renames a file's package clause (name, or name_test).
func (env *Env) clauseEdit(p *Plan, f, oldName, newName string) {
	data, ok := env.read(f)
	if !ok {
		return
	}
	m := packageClause.FindSubmatchIndex(data)
	if m == nil {
		return
	}
	name := string(data[m[2]:m[3]])
	var repl string
	switch name {
	case oldName:
		repl = newName
	case oldName + "_test":
		repl = newName + "_test"
	default:
		return
	}
	p.Edits = append(p.Edits, editAt(f, lang.LineStarts(data), m[2], name, repl, "package"))
}

// nearestExisting returns dir, or its nearest ancestor that exists.
func nearestExisting(root, dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if d == "." || d == "" || existsUnder(root, d) {
			if d == "" {
				return "."
			}
			return d
		}
	}
}

// GoImporters lists the directories of Go files that import a package in
// dirs (repo paths): what else a change to those packages may break.
func (env *Env) GoImporters(ctx context.Context, dirs []string) []string {
	seen := map[string]bool{}
	for _, d := range dirs {
		modDir, modPath, ok := env.goModule(d)
		if !ok {
			continue
		}
		ip := importPath(modDir, modPath, d)
		hits, err := env.Snap.Store().TextCandidates(ctx, store.GlobLiteral(`"`+ip+`"`), true, 1<<30)
		if err != nil {
			continue
		}
		for _, h := range hits {
			if !strings.HasSuffix(h.Path, ".go") || seen[path.Dir(h.Path)] {
				continue
			}
			if ix, err := env.load(ctx, h.Path); err == nil && ix != nil && ix.facts != nil {
				for _, im := range ix.facts.Imports {
					if im.Source == ip {
						seen[path.Dir(h.Path)] = true
						break
					}
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
