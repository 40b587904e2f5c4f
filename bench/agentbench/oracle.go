package agentbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnhq/cairn/bench/precision"
)

// Oracle is a language server over one repository, asked in Cairn's
// coordinates (repo-relative paths, 1-based lines, 1-based byte columns).
type Oracle struct {
	Name  string // gopls, typescript-language-server, pyright
	Root  string
	lang  string // LSP languageId for didOpen ("" when files need not be opened)
	lsp   *precision.LSP
	files *precision.Files
	open  map[string]bool
}

// StartOracle starts the language server for a language in root and waits
// until it has loaded the workspace.
func StartOracle(ctx context.Context, lang, root string, env []string) (*Oracle, error) {
	o := &Oracle{Root: root, files: precision.NewFiles(root), open: map[string]bool{}}
	var argv []string
	var wait func(*precision.LSP) bool
	switch lang {
	case "go":
		o.Name, argv = "gopls", []string{"gopls", "serve"}
	case "ts":
		o.Name, argv, o.lang = "typescript-language-server", []string{"typescript-language-server", "--stdio"}, "typescript"
		wait = func(l *precision.LSP) bool { return l.WaitProgress(10 * time.Minute) }
	case "py":
		o.Name, argv, o.lang = "pyright", []string{"pyright-langserver", "--stdio"}, "python"
		wait = func(l *precision.LSP) bool { return l.WaitLog("Found", 10*time.Minute) }
	default:
		return nil, fmt.Errorf("no oracle for %s", lang)
	}
	l, err := precision.StartLSP(ctx, argv, root, env, nil)
	if err != nil {
		return nil, err
	}
	o.lsp = l
	if o.lang != "" {
		// the servers load the project when a file of it is opened
		var first string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if first == "" && err == nil && !d.IsDir() && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".py")) && !strings.Contains(p, "node_modules") {
				first = p
			}
			return nil
		})
		rel, _ := filepath.Rel(root, first)
		if err := o.Open(filepath.ToSlash(rel)); err != nil {
			return nil, err
		}
		if wait != nil && !wait(l) {
			return nil, fmt.Errorf("%s did not finish loading", o.Name)
		}
	}
	return o, nil
}

// Close stops the server.
func (o *Oracle) Close() { o.lsp.Close() }

// Open opens a file in the server (once).
func (o *Oracle) Open(rel string) error {
	if o.lang == "" || o.open[rel] {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(o.Root, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	o.open[rel] = true
	return o.lsp.Open(filepath.Join(o.Root, filepath.FromSlash(rel)), o.lang, b)
}

// Pos is a position in Cairn's coordinates.
type Pos struct {
	Path      string
	Line, Col int
}

// Item is a symbol or location an oracle answered: its name's position.
type Item struct {
	Pos
	Name string
	Kind int // LSP SymbolKind, 0 for a plain location
}

func (o *Oracle) lspPos(p Pos) map[string]any {
	line := p.Line - 1
	text := o.files.Line(p.Path, p.Line)
	u16 := 0
	for i, r := range text {
		if i >= p.Col-1 {
			break
		}
		if r >= 0x10000 {
			u16 += 2
		} else {
			u16++
		}
	}
	return map[string]any{
		"textDocument": map[string]any{"uri": precision.FileURI(filepath.Join(o.Root, filepath.FromSlash(p.Path)))},
		"position":     map[string]any{"line": line, "character": u16},
	}
}

type lspRange struct {
	Start struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	} `json:"start"`
}

// fromLSP turns a URI and 0-based UTF-16 position into Cairn coordinates;
// ok is false outside the repository.
func (o *Oracle) fromLSP(uri string, r lspRange) (Pos, bool) {
	abs := precision.URIPath(uri)
	rel, err := filepath.Rel(o.Root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return Pos{}, false
	}
	rel = filepath.ToSlash(rel)
	line := r.Start.Line + 1
	return Pos{Path: rel, Line: line, Col: o.files.ByteCol(rel, line, r.Start.Character)}, true
}

type hierItem struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	URI            string          `json:"uri"`
	SelectionRange lspRange        `json:"selectionRange"`
	Raw            json.RawMessage `json:"-"`
}

// prepare returns the call hierarchy items at a position (raw, to pass back).
func (o *Oracle) prepare(ctx context.Context, p Pos) ([]json.RawMessage, error) {
	if err := o.Open(p.Path); err != nil {
		return nil, err
	}
	res, err := o.lsp.Call(ctx, "textDocument/prepareCallHierarchy", o.lspPos(p))
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if string(res) != "null" {
		if err := json.Unmarshal(res, &items); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// Call is one edge of the call hierarchy: the other end, and the call
// sites (in the caller's file).
type Call struct {
	Other Item
	Sites []Pos
	// External is true when the other end lies outside the repository.
	External bool
}

// Calls asks the incoming (callers) or outgoing (callees) calls of the
// function declared at p.
func (o *Oracle) Calls(ctx context.Context, p Pos, incoming bool) ([]Call, error) {
	items, err := o.prepare(ctx, p)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("no call hierarchy item at %s:%d:%d", p.Path, p.Line, p.Col)
	}
	method, field := "callHierarchy/outgoingCalls", "to"
	if incoming {
		method, field = "callHierarchy/incomingCalls", "from"
	}
	res, err := o.lsp.Call(ctx, method, map[string]any{"item": items[0]})
	if err != nil {
		return nil, err
	}
	var calls []map[string]json.RawMessage
	if string(res) != "null" {
		if err := json.Unmarshal(res, &calls); err != nil {
			return nil, err
		}
	}
	var out []Call
	for _, c := range calls {
		var it hierItem
		if err := json.Unmarshal(c[field], &it); err != nil {
			return nil, err
		}
		var ranges []lspRange
		json.Unmarshal(c["fromRanges"], &ranges)
		pos, ok := o.fromLSP(it.URI, it.SelectionRange)
		call := Call{Other: Item{Pos: pos, Name: it.Name, Kind: it.Kind}, External: !ok}
		// fromRanges lie in the caller's file: the other end for incoming
		// calls, the asked function's file for outgoing ones
		siteURI := it.URI
		if !incoming {
			siteURI = precision.FileURI(filepath.Join(o.Root, filepath.FromSlash(p.Path)))
		}
		for _, r := range ranges {
			if sp, ok := o.fromLSP(siteURI, r); ok {
				call.Sites = append(call.Sites, sp)
			}
		}
		out = append(out, call)
	}
	return out, nil
}

// Locations asks a request answering Location | Location[] | LocationLink[]
// (definition, implementation) at a position; locations outside the
// repository are dropped and counted.
func (o *Oracle) Locations(ctx context.Context, method string, p Pos) ([]Pos, int, error) {
	if err := o.Open(p.Path); err != nil {
		return nil, 0, err
	}
	res, err := o.lsp.Call(ctx, method, o.lspPos(p))
	if err != nil {
		return nil, 0, err
	}
	var raw []json.RawMessage
	if len(res) > 0 && res[0] == '{' {
		raw = []json.RawMessage{res}
	} else if string(res) != "null" {
		if err := json.Unmarshal(res, &raw); err != nil {
			return nil, 0, err
		}
	}
	var out []Pos
	external := 0
	for _, r := range raw {
		var l struct {
			URI                  string   `json:"uri"`
			Range                lspRange `json:"range"`
			TargetURI            string   `json:"targetUri"`
			TargetSelectionRange lspRange `json:"targetSelectionRange"`
		}
		json.Unmarshal(r, &l)
		uri, rg := l.URI, l.Range
		if l.TargetURI != "" {
			uri, rg = l.TargetURI, l.TargetSelectionRange
		}
		if pos, ok := o.fromLSP(uri, rg); ok {
			out = append(out, pos)
		} else {
			external++
		}
	}
	return out, external, nil
}

// References asks the references of the symbol at p (declaration included);
// locations outside the repository are dropped.
func (o *Oracle) References(ctx context.Context, p Pos) ([]Pos, error) {
	if err := o.Open(p.Path); err != nil {
		return nil, err
	}
	lp := o.lspPos(p)["position"].(map[string]any)
	locs, err := o.lsp.References(ctx, filepath.Join(o.Root, filepath.FromSlash(p.Path)), lp["line"].(int), lp["character"].(int))
	if err != nil {
		return nil, err
	}
	var out []Pos
	for _, l := range locs {
		var r lspRange
		r.Start.Line, r.Start.Character = l.Line, l.Character
		if pos, ok := o.fromLSP(precision.FileURI(l.Path), r); ok {
			out = append(out, pos)
		}
	}
	return out, nil
}
