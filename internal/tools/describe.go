package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/repomap"
)

// DescribeIn are the arguments of describe.
type DescribeIn struct {
	Tool string `json:"tool,omitempty" jsonschema:"a tool's name: its documentation"`
	Base
}

// DescribeOut is describe's payload: the repository summary, or one tool's documentation.
type DescribeOut struct {
	Repo *RepoSummary `json:"repo,omitempty"`
	Tool *ToolDoc     `json:"tool,omitempty"`
}

// RepoSummary is the repository at a glance, with the tools that serve it.
type RepoSummary struct {
	Root string `json:"root"`
	RepoGit
	IndexState string                  `json:"index_state"`
	Epoch      int64                   `json:"epoch"`
	Files      int                     `json:"files"`
	Languages  []repomap.LanguageCount `json:"languages"`
	Modules    []repomap.ModuleInfo    `json:"modules"`
	// Profile is the configured tool profile (which tools MCP clients see).
	Profile string   `json:"profile"`
	Enable  []string `json:"enable"`
	Disable []string `json:"disable"`
	// Tools lists every registered tool, sorted by group then name.
	Tools   []ToolLine `json:"tools"`
	ToolsOn int        `json:"tools_on"`
}

// ToolLine is one tool in the summary.
type ToolLine struct {
	Name    string `json:"name"`
	Group   string `json:"group"`
	Summary string `json:"summary"` // the first sentence
	On      bool   `json:"on"`      // visible to MCP clients under the configured profile
}

// ToolDoc documents one tool.
type ToolDoc struct {
	Name      string   `json:"name"`
	Group     string   `json:"group"`
	On        bool     `json:"on"`
	Summary   string   `json:"summary"`
	Doc       string   `json:"doc,omitempty"`
	When      []string `json:"when_to_use"`
	WhenNot   []string `json:"when_not_to_use"`
	Arguments []ArgDoc `json:"arguments"`
	Examples  []any    `json:"examples"`
	// Consistency says which consistency modes the tool answers in, or
	// why it answers without overlays.
	Consistency string `json:"consistency"`
}

// ArgDoc is one argument of a tool, read from its input type's tags.
type ArgDoc struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"` // string, integer, number, boolean, object, array of <type>
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
	Fields      []ArgDoc `json:"fields,omitempty"` // an object's fields
}

// modulesShown caps the modules the summary lists (map_repo has them all).
const modulesShown = 50

func init() {
	Register(Tool{
		// It brings the index up to date when it can, but answers (marked
		// may-be-stale) while the first index is still building.
		Name: "describe", Group: "core", FreshIfPossible: true,
		Summary: "Repository summary and tool list, or one tool's documentation. Start here.",
		Doc: "The summary lists every registered tool with its group and whether the configured profile (tools.profile, tools.enable, tools.disable) shows it to MCP clients; the CLI and REST always expose all. " +
			"With tool, the arguments come from the tool's input type: name, JSON type, whether required, and a description; objects list their fields. An unknown tool name fails with NOT_FOUND and the closest names as candidates.",
		When:     []string{"first call in a new repository, to learn its shape and which tools exist", "before calling an unfamiliar tool, to see its arguments and examples"},
		WhenNot:  []string{"health and freshness of the index: status", "the repository's structure in depth (directories, entry points, dependencies, tests): map_repo"},
		Examples: []string{`{}`, `{"tool": "search"}`},
		NoIndex:  true, // tool documentation needs no index
	}, describe)
}

func describe(ctx context.Context, c *Call, in DescribeIn) (*DescribeOut, error) {
	sel := NewSelection(c.Env.Config.Tools, c.Env.Paths.Root)
	if in.Tool != "" {
		t := Lookup(in.Tool)
		if t == nil {
			return nil, unknownTool(in.Tool)
		}
		d := toolDoc(t, sel)
		c.Answer("%s (%s): %s", t.Name, t.Group, firstSentence(d.Summary))
		return &DescribeOut{Tool: d}, nil
	}
	ix := c.Env.Index
	if ix == nil {
		return nil, c.Env.indexUnavailable()
	}
	st := c.State()
	ov, err := repomap.Overview(ctx, c.Engine())
	if err != nil {
		return nil, err
	}
	p := ix.Paths()
	out := &RepoSummary{Root: p.Root, RepoGit: c.repoGit(),
		Epoch: st.Epoch, Files: ov.Files, Languages: ov.Languages, Modules: ov.Modules, Profile: sel.Profile,
		Enable: nonNilStrings(c.Env.Config.Tools.Enable), Disable: nonNilStrings(c.Env.Config.Tools.Disable), Tools: []ToolLine{}}
	out.IndexState, _ = c.indexState()
	if len(out.Modules) > modulesShown {
		c.Truncated("modules", modulesShown, len(out.Modules), "describe lists the first modules; map_repo lists them all", "")
		out.Modules = out.Modules[:modulesShown]
	}
	for _, t := range All() {
		on := sel.On(t)
		if on {
			out.ToolsOn++
		}
		summary, _, _, _ := sel.Texts(t)
		out.Tools = append(out.Tools, ToolLine{Name: t.Name, Group: t.Group, Summary: firstSentence(summary), On: on})
	}
	sort.SliceStable(out.Tools, func(i, j int) bool {
		gi, gj := groupRank(out.Tools[i].Group), groupRank(out.Tools[j].Group)
		if gi != gj {
			return gi < gj
		}
		return out.Tools[i].Name < out.Tools[j].Name
	})
	where := p.Root
	if out.Branch != "" {
		where += " on " + out.Branch
	}
	c.Answer("%s: %d files (%s), %d modules; index %s at epoch %d; %d tools (%d on in profile %s)", where, out.Files,
		parsedLanguages(out.Languages), len(ov.Modules), out.IndexState, out.Epoch, len(out.Tools), out.ToolsOn, out.Profile)
	if !st.Built {
		c.Next("index_ensure", map[string]any{}, "the index has not been built yet")
	}
	c.Next("map_repo", map[string]any{}, "structure, entry points, dependencies and tests")
	c.Next("describe", map[string]any{"tool": "search"}, "documentation and examples of one tool")
	return &DescribeOut{Repo: out}, nil
}

// groupOrder lists groups in the order an agent meets them.
var groupOrder = []string{"core", "read", "edit", "git", "test", "task", "cards", "workspace"}

func groupRank(g string) int {
	for i, n := range groupOrder {
		if n == g {
			return i
		}
	}
	return len(groupOrder)
}

func toolDoc(t *Tool, sel Selection) *ToolDoc {
	summary, doc, when, whenNot := sel.Texts(t)
	d := &ToolDoc{Name: t.Name, Group: t.Group, On: sel.On(t), Summary: summary, Doc: doc,
		When: when, WhenNot: whenNot, Arguments: argDocs(t.In), Examples: []any{}, Consistency: t.Consistency()}
	for _, ex := range t.Examples {
		var v any
		if err := json.Unmarshal([]byte(ex), &v); err != nil {
			v = ex // a broken example is shown as written rather than lost
		}
		d.Examples = append(d.Examples, v)
	}
	return d
}

// argDocs lists the JSON fields of an input type, flattening embedded structs
// (Common) the way encoding/json does.
func argDocs(t reflect.Type) []ArgDoc {
	out := []ArgDoc{}
	if t == nil {
		return out
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, embedded := jsonName(f)
		if embedded {
			out = append(out, argDocs(f.Type)...)
			continue
		}
		if name == "" {
			continue
		}
		a := ArgDoc{Name: name, Type: jsonType(f.Type), Required: !strings.Contains(","+opts+",", ",omitempty,"),
			Description: f.Tag.Get("jsonschema")}
		if a.Type == "object" {
			a.Fields = argDocs(f.Type)
			if len(a.Fields) == 0 {
				a.Fields = nil
			}
		}
		out = append(out, a)
	}
	return out
}

// jsonName is the name encoding/json gives a struct field: its tag's, or
// else its Go name, with the tag's options; "" for a field it leaves out
// (tagged "-", or unexported). embedded is an embedded struct without a
// name, whose fields JSON flattens into the outer object.
func jsonName(f reflect.StructField) (name, opts string, embedded bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", "", false
	}
	name, opts, _ = strings.Cut(tag, ",")
	switch {
	case f.Anonymous && name == "":
		return "", opts, true
	case !f.IsExported():
		return "", "", false
	case name == "":
		name = f.Name
	}
	return name, opts, false
}

// jsonType names the JSON type a Go type decodes from.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array of " + jsonType(t.Elem())
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "any"
}

// unknownTool is NOT_FOUND with the closest tool names as candidates.
func unknownTool(name string) error {
	var names []string
	for _, t := range All() {
		names = append(names, t.Name)
	}
	close := closest(name, names, 3)
	e := &errs.Error{Kind: errs.NotFound, Msg: "no tool named " + quote(name), Fixes: []string{"cairn describe"}}
	for _, n := range close {
		e.Candidates = append(e.Candidates, n)
	}
	return e
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// closest returns up to n names nearest to q: names containing it (or
// contained in it) first, then by edit distance, then alphabetically; names
// too far away to be a typo are left out.
func closest(q string, names []string, n int) []string {
	q = strings.ToLower(q)
	type cand struct {
		name  string
		score int
	}
	var cs []cand
	for _, name := range names {
		d := editDistance(q, name)
		switch {
		case strings.Contains(name, q) || strings.Contains(q, name):
			d = 0
		case d > max(len(q), len(name))/2:
			continue
		}
		cs = append(cs, cand{name, d})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score < cs[j].score
		}
		return cs[i].name < cs[j].name
	})
	out := []string{}
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between two strings, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// firstSentence cuts a summary after its first sentence.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && !strings.HasSuffix(s[:i], "e.g") && !strings.HasSuffix(s[:i], "i.e") {
			return s[:i+1]
		}
	}
	return s
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// parsedLanguages names the languages of an overview that Cairn parses,
// for an answer.
func parsedLanguages(ls []repomap.LanguageCount) string {
	var names []string
	for _, l := range ls {
		if l.Language != repomap.OtherLanguage {
			names = append(names, l.Language)
		}
	}
	if len(names) == 0 {
		return "no parsed languages"
	}
	return strings.Join(names, ", ")
}
