package tools

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

var (
	schemaMu sync.Mutex // guards schemas
	// schemas caches each tool's input schema by tool name (and "+compact").
	schemas = map[string]*jsonschema.Schema{}
)

// commonNames are the JSON names of the Common arguments.
var commonNames = func() map[string]bool {
	out := map[string]bool{}
	for _, a := range argDocs(reflect.TypeOf(Common{})) {
		out[a.Name] = true
	}
	return out
}()

// viewNames are the JSON names of the View arguments.
var viewNames = []string{"consistency", "workspace_id", "virtual_files"}

// InputSchema is the JSON schema of the tool's arguments, generated from its
// Go input type: `jsonschema:"..."` tags become descriptions, fields without
// omitempty are required, the embedded Common fields appear as optional
// properties, and unknown properties are not allowed (the handler rejects
// them too). Optional slices and pointers are plain "array"/"object": the Go
// zero value never reaches the wire as null, and clients should not be told
// to send null. The schema is shared: callers must not modify it.
func (t *Tool) InputSchema() (*jsonschema.Schema, error) {
	return t.schema(false)
}

// CompactInputSchema is InputSchema without the descriptions of the common
// arguments (limit, cursor, ...), which every tool repeats and describe
// documents, and without additionalProperties; the minimal profile uses it
// to keep its tool list small.
func (t *Tool) CompactInputSchema() (*jsonschema.Schema, error) {
	return t.schema(true)
}

func (t *Tool) schema(compact bool) (*jsonschema.Schema, error) {
	key := t.Name
	if compact {
		key += "+compact"
	}
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemas[key]; ok {
		return s, nil
	}
	s, err := inputSchema(t.In)
	if err != nil {
		return nil, fmt.Errorf("tools: schema of %s: %w", t.Name, err)
	}
	if compact {
		// The handler refuses unknown arguments itself, with a clearer error
		// than a schema validator, so the compact schema leaves out
		// additionalProperties (at every level).
		s.AdditionalProperties = nil
		if !t.Paged {
			delete(s.Properties, "cursor")
		}
		// The consistency modes (View) are for agents sharing a repository
		// through workspaces, which the minimal profile leaves out; the
		// handler takes them all the same, and describe documents them.
		for _, name := range viewNames {
			if t.viewed {
				delete(s.Properties, name)
			}
		}
		for name, p := range s.Properties {
			if commonNames[name] {
				p.Description = ""
			}
			p.AdditionalProperties = nil
		}
	}
	schemas[key] = s
	return s, nil
}

func inputSchema(in reflect.Type) (*jsonschema.Schema, error) {
	if in == nil {
		return &jsonschema.Schema{Type: "object"}, nil
	}
	s, err := typeSchema(in)
	if err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("input type %s is not an object", in)
	}
	return s, nil
}

// typeSchema is the schema jsonschema-go derives from a Go type (through
// any pointers to it), with its nullable types made plain.
func typeSchema(t reflect.Type) (*jsonschema.Schema, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{})
	if err != nil {
		return nil, err
	}
	dropNull(s)
	return s, nil
}

// dropNull turns the ["null", T] types that jsonschema-go gives slices and
// pointers into plain T, throughout the schema.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
}
