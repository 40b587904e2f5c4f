package lang

import (
	"fmt"
	"strings"
	"sync"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// capRole is what a capture name means to the engine.
type capRole uint8

const (
	capOther capRole = iota
	capDef
	capName
	capReceiver
	capCall
	capMember
	capBinding
	capWrite
	capImport
	capSource
	capAlias
	capScope
	capLocalDef
	capRel
	capIgnore
	capImportRef
	capLocalType
	capLocalInit
	capDynamic
)

// compiled is the per-language state shared by all extractors: the grammar, the
// compiled query and lookup tables. Read-only after compile.
type compiled struct {
	lang       *ts.Language
	query      *ts.Query
	caps       []capRole
	capKind    []DefKind    // for capDef
	capImport  []ImportKind // for capImport
	capRel     []RelKind    // for capRel
	capDyn     []DynKind    // for capDynamic
	kindNames  []string
	fieldNames []string
	refKind    []bool // by symbol
	bodyKind   []bool
	comment    []bool
	selfName   map[string]bool
}

var (
	compileMu sync.Mutex
	compiles  = map[*Language]*compiled{}
)

// compile builds (once) the shared state of a language.
func compile(l *Language) (*compiled, error) {
	compileMu.Lock()
	defer compileMu.Unlock()
	if c, ok := compiles[l]; ok {
		return c, nil
	}
	tl := ts.NewLanguage(l.Grammar())
	q, qerr := ts.NewQuery(tl, l.Query)
	if qerr != nil {
		return nil, fmt.Errorf("lang %s: query: %s", l.Name, qerr.Error())
	}
	for i, preds := range q.TextPredicates {
		if len(preds) > 0 {
			return nil, fmt.Errorf("lang %s: query pattern %d uses a text predicate; the engine does not evaluate them", l.Name, i)
		}
	}
	c := &compiled{lang: tl, query: q, selfName: map[string]bool{}}
	for _, s := range l.SelfNames {
		c.selfName[s] = true
	}
	names := q.CaptureNames()
	c.caps = make([]capRole, len(names))
	c.capKind = make([]DefKind, len(names))
	c.capImport = make([]ImportKind, len(names))
	c.capRel = make([]RelKind, len(names))
	c.capDyn = make([]DynKind, len(names))
	for i, n := range names {
		role, err := classifyCapture(n, i, c)
		if err != nil {
			return nil, fmt.Errorf("lang %s: %w", l.Name, err)
		}
		c.caps[i] = role
	}
	count := int(tl.NodeKindCount())
	c.kindNames = make([]string, count+1)
	for i := 0; i < count; i++ {
		c.kindNames[i] = tl.NodeKindForId(uint16(i))
	}
	c.kindNames[count] = "ERROR"
	fields := int(tl.FieldCount())
	c.fieldNames = make([]string, fields+1)
	for i := 1; i <= fields; i++ {
		c.fieldNames[i] = tl.FieldNameForId(uint16(i))
	}
	c.refKind = kindSet(c, l.RefKinds)
	c.bodyKind = kindSet(c, l.BodyKinds)
	c.comment = kindSet(c, l.CommentKinds)
	compiles[l] = c
	return c, nil
}

// roleCaptures are the capture names that give a role and nothing more.
var roleCaptures = map[string]capRole{
	"name":              capName,
	"receiver":          capReceiver,
	"reference.call":    capCall,
	"reference.member":  capMember,
	"reference.binding": capBinding,
	"reference.write":   capWrite,
	"reference.import":  capImportRef,
	"source":            capSource,
	"alias":             capAlias,
	"local.scope":       capScope,
	"local.definition":  capLocalDef,
	"local.type":        capLocalType,
	"local.init":        capLocalInit,
	"ignore":            capIgnore,
}

// importCaptures are the kinds of @import.<kind> (@import alone is a module).
var importCaptures = map[string]ImportKind{
	"":            ImportModule,
	"module":      ImportModule,
	"named":       ImportNamed,
	"namespace":   ImportNamespace,
	"default":     ImportDefault,
	"all":         ImportAll,
	"side_effect": ImportSideEffect,
}

func classifyCapture(name string, i int, c *compiled) (capRole, error) {
	if r, ok := roleCaptures[name]; ok {
		return r, nil
	}
	head, tail, _ := strings.Cut(name, ".")
	var ok bool
	switch head {
	case "definition":
		c.capKind[i], ok = ParseKind(tail)
		return capDef, known(ok, "definition kind", tail)
	case "import":
		c.capImport[i], ok = importCaptures[tail]
		return capImport, known(ok, "import kind", tail)
	case "relation":
		c.capRel[i], ok = parseName[RelKind](relNames[:], tail)
		return capRel, known(ok, "relation", tail)
	case "dynamic":
		c.capDyn[i], ok = ParseDynKind(tail)
		return capDynamic, known(ok, "dynamic site kind", tail)
	}
	if strings.HasPrefix(name, "_") {
		return capOther, nil // helper captures used only by predicates
	}
	return 0, fmt.Errorf("unknown capture @%s", name)
}

// known is the error for a capture whose kind is not one of the names
// its family takes.
func known(ok bool, what, name string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("unknown %s %q", what, name)
}

func kindSet(c *compiled, kinds []string) []bool {
	set := make([]bool, len(c.kindNames))
	for _, k := range kinds {
		for sym, n := range c.kindNames {
			if n == k && c.lang.NodeKindIsNamed(uint16(sym)) {
				set[sym] = true
			}
		}
	}
	return set
}

// Check compiles a language's grammar and query (once; the result is cached
// for extraction) and reports what is wrong with them. Doctor calls it.
func Check(l *Language) error {
	if l.Grammar == nil {
		if l.Extract == nil {
			return fmt.Errorf("lang %s: neither a grammar nor an extractor", l.Name)
		}
		return nil // a language with its own extractor has no query to compile
	}
	_, err := compile(l)
	return err
}
