package refactor

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// MoveRequest moves a file or a directory.
type MoveRequest struct {
	From, To string
}

// moveSet is the files a move renames, old path -> new path.
type moveSet map[string]string

// target is where a path ends up after the move (itself when it stays).
func (m moveSet) target(p string) string {
	if to, ok := m[p]; ok {
		return to
	}
	return p
}

// Move plans moving a file, or a directory and everything indexed in it,
// with the imports that name them: Go import paths and package clauses (a
// directory is a package), relative specifiers of JavaScript and
// TypeScript, dotted module names of Python.
func (env *Env) Move(ctx context.Context, req MoveRequest) (*Plan, error) {
	from, err := env.repoPath(ctx, req.From, "from")
	if err != nil {
		return nil, err
	}
	to, err := env.repoPath(ctx, req.To, "to")
	if err != nil {
		return nil, err
	}
	if from == to {
		return nil, errs.E(errs.InvalidArgument, "from and to are the same path")
	}
	if strings.HasPrefix(to+"/", from+"/") {
		return nil, errs.E(errs.InvalidArgument, "cannot move %s into itself (%s)", from, to)
	}
	if env.exists(to) {
		return nil, &errs.Error{Kind: errs.Precondition, Path: to, Msg: to + " already exists: a move never overwrites",
			Details: map[string]any{"reason": "target_exists"}}
	}
	p := &Plan{Op: OpMove, From: from, To: to, Edits: []Edit{}, Groups: []Group{}, Docs: DocSweep{Hits: []DocHit{}}}
	ms, isDir, err := env.moveSet(ctx, p, from, to)
	if err != nil {
		return nil, err
	}
	if err := env.checkUnrewritten(ctx, ms); err != nil {
		return nil, err
	}
	layer := map[string]string{}
	if err := env.moveGo(ctx, p, ms, isDir); err != nil {
		return nil, err
	}
	if err := env.moveECMA(ctx, p, ms); err != nil {
		return nil, err
	}
	if err := env.movePython(ctx, p, ms); err != nil {
		return nil, err
	}
	froms := slices.Sorted(maps.Keys(ms))
	for _, f := range froms {
		ok, why := env.gitTrackedClean(ctx, f)
		p.Moves = append(p.Moves, Move{From: f, To: ms[f], GitMV: ok, Reason: why})
	}
	p.Witness.Semantic = "not used: moves follow the syntactic layer's imports"
	return env.finish(ctx, p, layer, "")
}

// repoPath checks a path argument and makes it repo-relative.
func (env *Env) repoPath(ctx context.Context, p, what string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errs.E(errs.InvalidArgument, "%s is required", what)
	}
	rp, err := scan.Contain(ctx, env.Paths.Root, p)
	if err != nil {
		return "", err
	}
	if rp == "" {
		return "", errs.E(errs.InvalidArgument, "%s is the repository root", what)
	}
	return string(rp), nil
}

// moveSet lists the files to move: the file, or every indexed file under
// the directory. Files under it the index does not hold are named in a
// warning: they stay where they are.
func (env *Env) moveSet(ctx context.Context, p *Plan, from, to string) (moveSet, bool, error) {
	ms := moveSet{}
	if row, ok, err := env.Snap.Store().FileByPath(ctx, from); err != nil {
		return nil, false, err
	} else if ok {
		ms[row.Path] = to
		return ms, false, nil
	}
	rows, err := env.Snap.Store().FilesUnder(ctx, from+"/")
	if err != nil {
		return nil, false, err
	}
	if len(rows) == 0 {
		return nil, false, &errs.Error{Kind: errs.FileNotFound, Path: from, Msg: "nothing indexed at " + from,
			Fixes: []string{"cairn ls " + path.Dir(from)}}
	}
	for _, r := range rows {
		ms[r.Path] = to + strings.TrimPrefix(r.Path, from)
	}
	var left []string
	filepath.WalkDir(filepath.Join(env.Paths.Root, filepath.FromSlash(from)), func(abs string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(env.Paths.Root, abs)
		if _, ok := ms[filepath.ToSlash(rel)]; !ok && len(left) < 20 {
			left = append(left, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(left) > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("not indexed, so not moved (ignored or unreadable): %s", strings.Join(left, ", ")))
	}
	return ms, true, nil
}

// indexed is a file's row and facts.
type indexed struct {
	row   store.FileRow
	facts *lang.Facts
}

// load reads a file's row and facts (nil facts for a file not parsed).
func (env *Env) load(ctx context.Context, p string) (*indexed, error) {
	row, ok, err := env.Snap.Store().FileByPath(ctx, p)
	if err != nil || !ok {
		return nil, err
	}
	f, err := env.Snap.Facts(ctx, row.BlobID)
	if err != nil {
		return nil, err
	}
	return &indexed{row: row, facts: f}, nil
}

// candidates lists indexed files whose text holds any of the needles, plus
// the files of the move themselves.
func (env *Env) candidates(ctx context.Context, needles []string, ms moveSet) ([]string, error) {
	seen := map[string]bool{}
	for f := range ms {
		seen[f] = true
	}
	for _, n := range needles {
		hits, err := env.Snap.Store().TextCandidates(ctx, store.GlobLiteral(n), true, 1<<30)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			seen[h.Path] = true
		}
	}
	out := slices.Sorted(maps.Keys(seen))
	return out, nil
}

// importSite is a file whose imports may name a moved file, with what a
// rewrite reads of it.
type importSite struct {
	path   string
	facts  *lang.Facts
	data   []byte
	starts []int
}

// importers loads the files of one language (keep) that may import a moved
// file: those whose text holds a needle, and the moved files themselves.
func (env *Env) importers(ctx context.Context, needles []string, ms moveSet, keep func(string) bool) ([]importSite, error) {
	sort.Strings(needles)
	files, err := env.candidates(ctx, needles, ms)
	if err != nil {
		return nil, err
	}
	var out []importSite
	for _, f := range files {
		if !keep(f) {
			continue
		}
		ix, err := env.load(ctx, f)
		if err != nil || ix == nil || ix.facts == nil {
			continue
		}
		data, ok := env.read(f)
		if !ok {
			continue
		}
		out = append(out, importSite{path: f, facts: ix.facts, data: data, starts: lang.LineStarts(data)})
	}
	return out, nil
}

// posOffset is the byte offset of a position, -1 when it is not in data.
func posOffset(data []byte, starts []int, pos lang.Pos) int {
	return offset(starts, len(data), int(pos.Line), int(pos.Col))
}

// editAt makes the edit replacing old at offset off with new.
func editAt(p string, starts []int, off int, old, new, kind string) Edit {
	line := sortSearch(starts, off)
	col := off - starts[line-1] + 1
	return Edit{Path: p, Line: line, Col: col, EndLine: line, EndCol: col + len(old), Old: old, New: new, Kind: kind, Tier: "proven", Layer: "syntactic"}
}

// quotedAfter finds the string literal holding exactly text at or after
// offset off (within a few lines: an import statement), and returns the
// offset of its text.
func quotedAfter(data []byte, off int, text string) int {
	end := min(len(data), off+4000)
	best := -1
	for _, q := range []string{`"`, `'`, "`"} {
		if i := strings.Index(string(data[off:end]), q+text+q); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	return off + best + 1
}

// qualifierEdits renames the qualifier old of member references in a file
// (old.X -> new.X): the uses of an imported package or module whose name
// changes. A qualifier bound to a local or a same-file definition is not
// the import and is left alone.
func qualifierEdits(p string, data []byte, f *lang.Facts, old, new string) []Edit {
	starts := lang.LineStarts(data)
	var out []Edit
	for _, r := range f.Refs {
		if r.Shape != lang.QualIdent && r.Shape != lang.QualPath {
			continue
		}
		if r.QualBound || f.Names[r.Qualifier] != old {
			continue
		}
		off := posOffset(data, starts, r.Pos)
		at := off - len(old) - 1
		if off < 0 || at < 0 || string(data[at:off]) != old+"." {
			continue
		}
		out = append(out, editAt(p, starts, at, old, new, "qualifier"))
	}
	return out
}

// exists reports whether a path exists under root (used for new paths).
func existsUnder(root, p string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
	return err == nil
}
