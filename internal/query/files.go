package query

import (
	"context"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lexical"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// ListParams selects entries of the indexed tree.
type ListParams struct {
	Path   string // directory (repo-relative); "" for the root
	Depth  int    // 1 lists direct children
	Glob   string
	Langs  []string
	Limit  int
	Offset int
}

// Entry is a file or directory.
type Entry struct {
	Path  string `json:"path"`
	Type  string `json:"type"` // file or dir
	Size  int64  `json:"size"` // bytes; for a directory, of the indexed files under it
	Lang  string `json:"lang,omitempty"`
	Files int    `json:"files,omitempty"` // indexed files under a directory
	State string `json:"state,omitempty"` // for files not parsed: text, binary, too_large, parse_errors; capped when the extractor's bounds cut its facts
}

// ListResult is a page of entries.
type ListResult struct {
	Path       string  `json:"path"`
	Entries    []Entry `json:"entries"`
	Total      int     `json:"total"`
	More       bool    `json:"more"`
	NextOffset int     `json:"-"`
}

// FilesAndModules lists every indexed file and every module.
func (e *Engine) FilesAndModules(ctx context.Context) ([]store.FileRow, []store.ModuleRow, error) {
	files, err := e.Files(ctx)
	if err != nil {
		return nil, nil, err
	}
	mods, err := e.Store().Modules(ctx)
	if err != nil {
		return nil, nil, err
	}
	return files, mods, nil
}

// Imports calls f with the import edges of every file want accepts (a row
// that does not decode is left out).
func (e *Engine) Imports(ctx context.Context, want func(fileID int64) bool, f func(fileID int64, edges []index.ImportEdge)) error {
	all, err := e.Store().AllImports(ctx)
	if err != nil {
		return err
	}
	for id, data := range all {
		if !want(id) || e.replaced(ctx, id) {
			continue
		}
		edges, err := index.DecodeImports(data)
		if err != nil {
			continue
		}
		f(id, edges)
	}
	if e.ov == nil {
		return nil
	}
	for _, p := range e.ov.Paths() { // the overlay's files, by path
		o := e.ov.files[p]
		if o.deleted || !want(o.id) {
			continue
		}
		of, err := e.derive(ctx, o)
		if err != nil {
			return err
		}
		if len(of.Imports) > 0 {
			f(o.id, of.Imports)
		}
	}
	return nil
}

// List lists indexed files and directories under a path, depth-limited.
func (e *Engine) List(ctx context.Context, p ListParams) (*ListResult, error) {
	// Listing follows the read policy: a path into .git, Cairn's state, a
	// secret or an ignored path is refused, never replaced by the root.
	rp, err := e.CheckReadable(ctx, p.Path, "list")
	if err != nil {
		return nil, err
	}
	dir := string(rp)
	filter, err := NewFileFilter(nil, p.Langs)
	if err != nil {
		return nil, err
	}
	var glob *lexical.Glob
	if p.Glob != "" {
		if err := scan.CheckPatternLength(p.Glob); err != nil {
			return nil, err
		}
		if glob, err = lexical.CompileGlob(p.Glob); err != nil {
			return nil, errs.E(errs.InvalidArgument, "bad glob %q: %v", p.Glob, err)
		}
	}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	files, err := e.FilesUnder(ctx, prefix)
	if err != nil {
		return nil, err
	}
	if dir != "" && len(files) == 0 {
		if f, ok, _ := e.FileByPath(ctx, dir); ok {
			files = append(files, f) // a file path lists itself
			prefix = ""
		} else {
			return nil, &errs.Error{Kind: errs.FileNotFound, Path: dir, Msg: "nothing indexed under " + dir}
		}
	}
	depth := max(p.Depth, 1)
	dirs := map[string]*Entry{}
	var out []Entry
	for _, f := range files {
		if !filter.Match(f.Path, f.Lang) || (glob != nil && !glob.Match(f.Path)) {
			continue
		}
		rel := strings.TrimPrefix(f.Path, prefix)
		parts := strings.Split(rel, "/")
		if len(parts) <= depth {
			out = append(out, Entry{Path: f.Path, Type: "file", Size: f.Size, Lang: f.Lang, State: fileState(f.Status)})
			continue
		}
		d := prefix + strings.Join(parts[:depth], "/")
		ent := dirs[d]
		if ent == nil {
			ent = &Entry{Path: d, Type: "dir"}
			dirs[d] = ent
		}
		ent.Files++
		ent.Size += f.Size
	}
	for _, d := range dirs {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type == "dir"
		}
		return out[i].Path < out[j].Path
	})
	res := &ListResult{Path: dir, Total: len(out), Entries: []Entry{}}
	out, res.More = Page(out, p.Offset, p.Limit)
	res.Entries = append(res.Entries, out...)
	res.NextOffset = p.Offset + len(res.Entries)
	return res, nil
}

func fileState(st store.BlobStatus) string {
	switch st {
	case store.BlobParsed:
		return ""
	case store.BlobText:
		return "text"
	}
	return st.String()
}
