// Package cards owns spec cards: requirements kept as markdown files under
// .cairn/cards/ (YAML frontmatter + body), the keyword and tag registries
// beside them, typed relations between cards, and the @see links that code
// comments of every supported language make to them. It derives its tables
// in the worktree index inside each reconcile batch (an index.Deriver), so
// cards and code share an epoch; it reads them through a request's
// snapshot, joined with the code entities and relations of the index
// (imports, calls, extends, implements); and it plans every write as a
// batch of file edits for the mutation engine. It never writes files
// itself and never formats responses.
package cards

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Dir is where card files live, repo-relative.
const Dir = ".cairn/cards"

// Suffix ends the name of every card file.
const Suffix = ".card.md"

// Card statuses, in the order of a card's life.
const (
	StatusDraft        = "draft"
	StatusAccepted     = "accepted"
	StatusImplementing = "implementing"
	StatusImplemented  = "implemented"
	StatusDeprecated   = "deprecated"
)

// Statuses lists the valid statuses in order.
var Statuses = []string{StatusDraft, StatusAccepted, StatusImplementing, StatusImplemented, StatusDeprecated}

// DefaultRelations are the relation types when the configuration names none.
var DefaultRelations = []string{"depends-on", "references", "related", "extends", "conflicts"}

// ValidKey reports whether s is a well-formed card key: slash-separated
// segments of ASCII letters, digits, '.', '_' and '-', each starting with a
// letter or digit, and not ending in '.'. A key never holds ':', which marks
// a code entity (module:..., symbol:...).
func ValidKey(s string) bool {
	if len(s) > 200 || strings.HasSuffix(s, ".") {
		return false
	}
	for seg := range strings.SplitSeq(s, "/") {
		if seg == "" || !asciiAlnum(rune(seg[0])) {
			return false
		}
		for _, r := range seg {
			if !asciiAlnum(r) && r != '.' && r != '_' && r != '-' {
				return false
			}
		}
	}
	return true
}

func asciiAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// ValidName reports whether s is a well-formed keyword or tag name: a
// letter or digit (of any script), then letters, digits, '.', '_', '/',
// '+', '-' and spaces, with no space at either end.
func ValidName(s string) bool {
	if len(s) > 100 || s == "" || strings.TrimSpace(s) != s {
		return false
	}
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsNumber(r)
		if i == 0 && !alnum || !alnum && !strings.ContainsRune("._/+ -", r) {
			return false
		}
	}
	return true
}

// PathFor is the file a new card with this key gets.
func PathFor(key string) string { return Dir + "/" + key + Suffix }

// IsCardPath reports whether a repo path is a card file.
func IsCardPath(p string) bool {
	return strings.HasPrefix(p, Dir+"/") && strings.HasSuffix(p, Suffix) && len(p) > len(Dir)+1+len(Suffix)
}

// Relation is one outgoing typed edge a card declares.
type Relation struct {
	Type   string `json:"type"`
	Target string `json:"target"`
}

// Card is a card file: the frontmatter fields and the markdown body.
type Card struct {
	Key         string
	Summary     string
	Status      string
	Tags        []string
	Keywords    []string
	Constraints []string
	Relations   []Relation
	Body        string
	// extra holds frontmatter fields Cairn does not know, as written
	// (key node, value node pairs); they survive a rewrite.
	extra []*yaml.Node
}

// Unknown lists the frontmatter fields Cairn does not know.
func (c *Card) Unknown() []string {
	var out []string
	for i := 0; i+1 < len(c.extra); i += 2 {
		out = append(out, c.extra[i].Value)
	}
	return out
}

// ParseError is why a file is not a valid card.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

func problem(format string, args ...any) error { return &ParseError{Msg: fmt.Sprintf(format, args...)} }

// splitFrontmatter returns the YAML between the opening and closing ---
// lines and the body after them.
func splitFrontmatter(data []byte) (front, body []byte, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(bytes.TrimRight(first, "\r \t")) != "---" {
		return nil, nil, problem("the file does not start with a --- line opening the frontmatter")
	}
	pos := 0
	for pos <= len(rest) {
		end := bytes.IndexByte(rest[pos:], '\n')
		line := rest[pos:]
		next := len(rest) + 1
		if end >= 0 {
			line, next = rest[pos:pos+end], pos+end+1
		}
		if string(bytes.TrimRight(line, "\r \t")) == "---" {
			body = nil
			if next <= len(rest) {
				body = rest[next:]
			}
			return rest[:pos], body, nil
		}
		pos = next
	}
	return nil, nil, problem("the frontmatter has no closing --- line")
}

// Parse reads a card file. A file that is not a valid card returns a
// *ParseError saying why (and, when the frontmatter could be read, the card
// as far as it goes).
func Parse(data []byte) (*Card, error) {
	front, body, err := splitFrontmatter(data)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return nil, problem("the frontmatter is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c := &Card{Body: string(body)}
	if len(doc.Content) == 0 {
		return c, problem("the frontmatter is empty: it needs at least key, summary and status")
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return c, problem("the frontmatter is not a mapping of fields")
	}
	var firstErr error
	fail := func(format string, args ...any) {
		if firstErr == nil {
			firstErr = problem(format, args...)
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "key", "summary", "status":
			var s string
			if v.Kind != yaml.ScalarNode || v.Decode(&s) != nil {
				fail("%s must be a string (line %d)", k.Value, v.Line)
				continue
			}
			switch k.Value {
			case "key":
				c.Key = strings.TrimSpace(s)
			case "summary":
				c.Summary = strings.TrimSpace(s)
			default:
				c.Status = strings.TrimSpace(s)
			}
		case "tags", "keywords", "constraints":
			var list []string
			if v.Kind != yaml.SequenceNode || v.Decode(&list) != nil {
				fail("%s must be a list of strings (line %d)", k.Value, v.Line)
				continue
			}
			for i := range list {
				list[i] = strings.TrimSpace(list[i])
			}
			switch k.Value {
			case "tags":
				c.Tags = list
			case "keywords":
				c.Keywords = list
			default:
				c.Constraints = list
			}
		case "relations":
			var rels []Relation
			if v.Kind != yaml.SequenceNode {
				fail("relations must be a list of {type, target} (line %d)", v.Line)
				continue
			}
			for _, item := range v.Content {
				var raw map[string]string
				if item.Kind != yaml.MappingNode || item.Decode(&raw) != nil {
					fail("relations must be a list of {type, target} (line %d)", item.Line)
					continue
				}
				r := Relation{Type: strings.TrimSpace(raw["type"]), Target: strings.TrimSpace(raw["target"])}
				for f := range raw {
					if f != "type" && f != "target" {
						fail("relation field %q is unknown: a relation has type and target (line %d)", f, item.Line)
					}
				}
				if r.Type == "" || r.Target == "" {
					fail("a relation needs both type and target (line %d)", item.Line)
					continue
				}
				rels = append(rels, r)
			}
			c.Relations = rels
		default:
			c.extra = append(c.extra, k, v)
		}
	}
	switch {
	case firstErr != nil:
	case c.Key == "":
		fail("the frontmatter has no key")
	case !ValidKey(c.Key):
		fail("key %q is not a valid card key (slash-separated segments of letters, digits, '.', '_' and '-')", c.Key)
	case c.Summary == "":
		fail("the frontmatter has no summary")
	case c.Status == "":
		fail("the frontmatter has no status (one of %s)", strings.Join(Statuses, ", "))
	case !slices.Contains(Statuses, c.Status):
		fail("status %q is not one of %s", c.Status, strings.Join(Statuses, ", "))
	}
	return c, firstErr
}

// scalar is a YAML string node.
func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func seqOf(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, s := range items {
		n.Content = append(n.Content, scalar(s))
	}
	return n
}

// Format writes a card file: the known fields in a fixed order (lists only
// when not empty), then unknown fields as they were, then the body.
func Format(c *Card) []byte {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, scalar(k), v) }
	add("key", scalar(c.Key))
	add("summary", scalar(c.Summary))
	add("status", scalar(c.Status))
	for _, f := range []struct {
		name  string
		items []string
	}{{"tags", c.Tags}, {"keywords", c.Keywords}, {"constraints", c.Constraints}} {
		if len(f.items) > 0 {
			add(f.name, seqOf(f.items))
		}
	}
	if len(c.Relations) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, r := range c.Relations {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
				Content: []*yaml.Node{scalar("type"), scalar(r.Type), scalar("target"), scalar(r.Target)}})
		}
		add("relations", seq)
	}
	m.Content = append(m.Content, c.extra...)
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		// Every node above is a string, a list or a mapping of them, and the
		// extra nodes came from the YAML decoder.
		panic("cards: encode frontmatter: " + err.Error())
	}
	enc.Close()
	buf.WriteString("---\n")
	body := c.Body
	if body != "" && !strings.HasPrefix(body, "\n") {
		body = "\n" + body
	}
	buf.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// Clone copies a card (lists included) for editing.
func (c *Card) Clone() *Card {
	d := *c
	d.Tags = slices.Clone(c.Tags)
	d.Keywords = slices.Clone(c.Keywords)
	d.Constraints = slices.Clone(c.Constraints)
	d.Relations = slices.Clone(c.Relations)
	d.extra = slices.Clone(c.extra)
	return &d
}
