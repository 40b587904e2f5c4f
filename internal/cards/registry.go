package cards

import (
	"bytes"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cairnhq/cairn/internal/store"
)

// A registry lists the keywords (or tags) that cards may name: a keyword is
// a normalised term of a dictionary (what a card is about), a tag a
// category (how cards are grouped). Each lives in a file of its own beside
// the cards, a mapping from name to description under one top-level key:
//
//	keywords:
//	  authentication: how a user proves who they are
//	  jwt: ""
type registryKind struct {
	Kind  uint8
	Field string // the top-level key, and the card field naming them
	Path  string
	Noun  string // keyword, tag
}

var (
	// Keywords is the keyword registry.
	Keywords = registryKind{Kind: store.LabelKeyword, Field: "keywords", Path: Dir + "/keywords.yaml", Noun: "keyword"}
	// Tags is the tag registry.
	Tags = registryKind{Kind: store.LabelTag, Field: "tags", Path: Dir + "/tags.yaml", Noun: "tag"}
)

// registryFor finds the registry a repo path holds (ok false for other files).
func registryFor(p string) (registryKind, bool) {
	switch p {
	case Keywords.Path:
		return Keywords, true
	case Tags.Path:
		return Tags, true
	}
	return registryKind{}, false
}

// Entry is one registered name.
type Entry struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ParseRegistry reads a registry file: its entries sorted by name, or why
// it cannot be read.
func ParseRegistry(k registryKind, data []byte) ([]Entry, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, problem("%s is not valid YAML: %s", k.Path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || len(top.Content) != 2 || top.Content[0].Value != k.Field {
		return nil, problem("%s must hold one mapping under %q: name: description", k.Path, k.Field)
	}
	m := top.Content[1]
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return nil, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, problem("%s: %q must be a mapping of name: description", k.Path, k.Field)
	}
	var out []Entry
	for i := 0; i+1 < len(m.Content); i += 2 {
		name, desc := m.Content[i], m.Content[i+1]
		var d string
		if desc.Kind != yaml.ScalarNode || (desc.Tag != "!!null" && desc.Decode(&d) != nil) {
			return nil, problem("%s: the description of %q must be a string (line %d)", k.Path, name.Value, desc.Line)
		}
		out = append(out, Entry{Name: strings.TrimSpace(name.Value), Description: strings.TrimSpace(d)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// FormatRegistry writes a registry file with its entries sorted by name.
func FormatRegistry(k registryKind, entries []Entry) []byte {
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, e := range sorted {
		m.Content = append(m.Content, scalar(e.Name), scalar(e.Description))
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(k.Field), m}}
	var buf bytes.Buffer
	buf.WriteString("# Registered " + k.Field + ": the only names cards may list under " + k.Field + ".\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(top); err != nil {
		panic("cards: encode registry: " + err.Error())
	}
	enc.Close()
	return buf.Bytes()
}
