package repomap

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// OtherLanguage names indexed files that no language parses (text, data,
// binaries) in language counts.
const OtherLanguage = "other"

// LanguageCount is how much of the index one language holds.
type LanguageCount struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	Bytes    int64  `json:"bytes"`
	// Percent is the share of indexed files, 0-100 (6 decimals at most).
	Percent float64 `json:"percent"`
}

// ModuleInfo is a module of the index: a manifest and the directory it owns.
type ModuleInfo struct {
	Name     string `json:"name"`
	Root     string `json:"root"` // repo-relative directory, "" for the root
	Kind     string `json:"kind"` // go, npm, python, or dir (no manifest)
	Manifest string `json:"manifest,omitempty"`
	Files    int    `json:"files"`
	// Languages counts the module's files per language.
	Languages map[string]int `json:"languages"`
}

// Summary is the repository at a glance: what describe and map_repo start from.
type Summary struct {
	Files     int             `json:"files"`
	Bytes     int64           `json:"bytes"`
	Languages []LanguageCount `json:"languages"`
	Modules   []ModuleInfo    `json:"modules"`
}

// Overview counts the indexed files per language and per module.
func Overview(ctx context.Context, e *query.Engine) (*Summary, error) {
	files, mods, err := e.FilesAndModules(ctx)
	if err != nil {
		return nil, err
	}
	return overview(files, mods), nil
}

func overview(files []store.FileRow, mods []store.ModuleRow) *Summary {
	o := &Summary{Files: len(files), Languages: []LanguageCount{}, Modules: []ModuleInfo{}}
	langs := map[string]*LanguageCount{}
	byID := map[int64]*ModuleInfo{}
	for _, m := range mods {
		o.Modules = append(o.Modules, ModuleInfo{Name: m.Name, Root: m.Root, Kind: m.Kind, Manifest: m.Manifest, Languages: map[string]int{}})
	}
	for i, m := range mods {
		byID[m.ID] = &o.Modules[i]
	}
	for _, f := range files {
		l := langName(f.Lang)
		lc := langs[l]
		if lc == nil {
			lc = &LanguageCount{Language: l}
			langs[l] = lc
		}
		lc.Files++
		lc.Bytes += f.Size
		o.Bytes += f.Size
		if m := byID[f.ModuleID]; m != nil {
			m.Files++
			m.Languages[l]++
		}
	}
	for _, lc := range langs {
		if o.Files > 0 {
			lc.Percent = protocol.Round6(float64(lc.Files) * 100 / float64(o.Files))
		}
		o.Languages = append(o.Languages, *lc)
	}
	sortLanguages(o.Languages)
	return o
}

// sortLanguages orders languages by file count (most first), "other" last.
func sortLanguages(ls []LanguageCount) {
	sort.Slice(ls, func(i, j int) bool {
		a, b := ls[i], ls[j]
		if (a.Language == OtherLanguage) != (b.Language == OtherLanguage) {
			return b.Language == OtherLanguage
		}
		if a.Files != b.Files {
			return a.Files > b.Files
		}
		return a.Language < b.Language
	})
}

func langName(l string) string {
	if l == "" {
		return OtherLanguage
	}
	return l
}
