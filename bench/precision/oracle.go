// Package precision scores Cairn's answers against compiler-grade oracles:
// SCIP indexes (scip-go, scip-typescript, scip-python) and language servers
// (gopls, typescript-language-server, pyright). It is reusable beyond
// references: an oracle answers "where is this symbol used", and Tally
// scores any set of tiered locations against any truth set, so call edges
// (callers as locations) and renames (edit positions) can be scored the
// same way.
package precision

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

// Loc is a position in Cairn's coordinates: repo-relative path, 1-based
// line, 1-based byte column.
type Loc struct {
	Path string
	Line int
	Col  int
}

func (l Loc) String() string { return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col) }

// Files reads corpus files once and converts columns between bytes and
// UTF-16 code units (what LSP and JavaScript-based indexers count).
type Files struct {
	Root  string
	cache map[string][]string
}

// NewFiles reads files under root.
func NewFiles(root string) *Files { return &Files{Root: root, cache: map[string][]string{}} }

// Lines returns a file's lines (nil when unreadable).
func (f *Files) Lines(path string) []string {
	if l, ok := f.cache[path]; ok {
		return l
	}
	b, err := os.ReadFile(filepath.Join(f.Root, filepath.FromSlash(path)))
	var lines []string
	if err == nil {
		lines = strings.Split(string(b), "\n")
	}
	f.cache[path] = lines
	return lines
}

// Line returns a 1-based line ("" when out of range).
func (f *Files) Line(path string, line int) string {
	ls := f.Lines(path)
	if line < 1 || line > len(ls) {
		return ""
	}
	return strings.TrimSuffix(ls[line-1], "\r")
}

// ByteCol converts a 0-based UTF-16 column on a 1-based line to a 1-based byte column.
func (f *Files) ByteCol(path string, line, u16 int) int {
	text := f.Line(path, line)
	units := 0
	for i := 0; i < len(text); {
		if units >= u16 {
			return i + 1
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if k := utf16.RuneLen(r); k > 0 {
			units += k
		} else {
			units++
		}
		i += size
	}
	return len(text) + 1 + (u16 - units)
}

// UTF16Col converts a 1-based byte column to a 0-based UTF-16 column.
func (f *Files) UTF16Col(path string, line, col int) int {
	text := f.Line(path, line)
	if col-1 > len(text) {
		return col - 1
	}
	units := 0
	for _, r := range text[:col-1] {
		if k := utf16.RuneLen(r); k > 0 {
			units += k
		} else {
			units++
		}
	}
	return units
}

// SCIPOracle is a SCIP index read independently of Cairn's importer: every
// global symbol's occurrences in the repository.
type SCIPOracle struct {
	Tool string
	Occs map[string][]Loc  // symbol -> occurrences, the definition included
	Defs map[Loc][]string  // definition position -> symbols defined there
	Docs map[string]bool   // repo paths the index covers
	Kind map[string]string // symbol -> SymbolInformation kind, when given
	// Impl maps a symbol to the symbols its implementation relationships
	// name: the interface methods a method implements, the base methods it
	// overrides (is_implementation).
	Impl map[string][]string
}

// LoadSCIP reads a .scip file whose documents live under root (its project
// root, or prefix inside the repository).
func LoadSCIP(path string, files *Files, prefix string) (*SCIPOracle, error) {
	o := &SCIPOracle{Occs: map[string][]Loc{}, Defs: map[Loc][]string{}, Docs: map[string]bool{}, Kind: map[string]string{}, Impl: map[string][]string{}}
	var utf16Cols bool
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var idx scip.Index
	if err := proto.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	o.Tool = idx.GetMetadata().GetToolInfo().GetName()
	for _, d := range idx.Documents {
		p := filepath.ToSlash(filepath.Join(prefix, d.RelativePath))
		if strings.HasPrefix(p, "../") {
			continue
		}
		o.Docs[p] = true
		switch d.PositionEncoding {
		case scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart:
			utf16Cols = true
		case scip.PositionEncoding_UTF8CodeUnitOffsetFromLineStart:
			utf16Cols = false
		default:
			utf16Cols = o.Tool != "scip-go"
		}
		for _, si := range d.Symbols {
			o.Kind[si.Symbol] = si.Kind.String()
			for _, r := range si.Relationships {
				if r.IsImplementation && r.Symbol != si.Symbol {
					o.Impl[si.Symbol] = append(o.Impl[si.Symbol], r.Symbol)
				}
			}
		}
		for _, occ := range d.Occurrences {
			if occ.Symbol == "" || strings.HasPrefix(occ.Symbol, "local ") {
				continue
			}
			r, ok := occ.SourceRange()
			if !ok {
				continue
			}
			line := int(r.Start.Line) + 1
			col := int(r.Start.Character) + 1
			if utf16Cols {
				col = files.ByteCol(p, line, int(r.Start.Character))
			}
			l := Loc{Path: p, Line: line, Col: col}
			o.Occs[occ.Symbol] = append(o.Occs[occ.Symbol], l)
			if occ.SymbolRoles&int32(scip.SymbolRole_Definition) != 0 {
				o.Defs[l] = append(o.Defs[l], occ.Symbol)
			}
		}
	}
	return o, nil
}

// Implemented lists, sorted, the symbols a call of which may run symbol by
// dispatch: those its implementation relationships name, followed
// transitively (an override of an override, an interface method that
// implements another).
func (o *SCIPOracle) Implemented(symbol string) []string {
	seen := map[string]bool{symbol: true}
	var out []string
	next := []string{symbol}
	for len(next) > 0 {
		s := next[0]
		next = next[1:]
		for _, t := range o.Impl[s] {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
				next = append(next, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

// readLines is a helper for reports: the trimmed text of a location's line.
func readLines(files *Files, l Loc) string {
	return strings.TrimSpace(files.Line(l.Path, l.Line))
}
