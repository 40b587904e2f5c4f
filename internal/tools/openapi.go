package tools

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/cairnhq/cairn/internal/bug"
	"github.com/cairnhq/cairn/internal/protocol"
)

// OpenAPI is the OpenAPI 3.1 document of the REST API, generated from the
// registry: one POST operation per tool (its input schema as the request
// body, an envelope whose data is its output schema as the answer) and the
// operational routes of `cairn up`. Schemas are JSON Schema 2020-12, which
// OpenAPI 3.1 takes as they are.
func OpenAPI(version string) map[string]any {
	schemas := map[string]any{
		"ErrorObject": schemaOf(reflect.TypeOf(protocol.ErrorObject{})),
		"Provenance":  schemaOf(reflect.TypeOf(protocol.Provenance{})),
		"NextAction":  schemaOf(reflect.TypeOf(protocol.NextAction{})),
		"Meta":        schemaOf(reflect.TypeOf(protocol.Meta{})),
	}
	schemas["ErrorEnvelope"] = envelopeSchema(nil)
	paths := map[string]any{}
	for _, t := range All() {
		in, err := t.InputSchema()
		if err != nil {
			continue
		}
		base := schemaName(t.Name)
		schemas[base+"Input"] = in
		schemas[base+"Envelope"] = envelopeSchema(schemaOf(t.Out))
		doc := t.Summary
		if t.Doc != "" {
			doc += "\n\n" + t.Doc
		}
		paths["/api/v1/tools/"+t.Name] = map[string]any{"post": map[string]any{
			"operationId": t.Name,
			"tags":        []string{t.Group},
			"summary":     strings.TrimSuffix(firstSentence(t.Summary), "."),
			"description": doc,
			"requestBody": map[string]any{"required": true, "content": jsonContent(ref(base + "Input"))},
			"parameters": []any{map[string]any{"name": "X-Cairn-Task", "in": "header", "required": false,
				"description": "the task this call belongs to (task_open's task_id)", "schema": map[string]any{"type": "string"}}},
			"responses": map[string]any{
				"200":     map[string]any{"description": "the tool's envelope", "content": jsonContent(ref(base + "Envelope"))},
				"default": map[string]any{"description": "the envelope of a failed call (error instead of answer and data)", "content": jsonContent(ref("ErrorEnvelope"))},
			},
		}}
	}
	text := map[string]any{"text/plain": map[string]any{"schema": map[string]any{"type": "string"}}}
	object := jsonContent(map[string]any{"type": "object"})
	simple := func(id, summary string, content map[string]any) map[string]any {
		return map[string]any{"get": map[string]any{"operationId": id, "tags": []string{"server"}, "summary": summary,
			"responses": map[string]any{"200": map[string]any{"description": summary, "content": content}}}}
	}
	paths["/api/v1/tools"] = simple("list_tools", "Every tool with its input schema", object)
	paths["/api/v1/openapi.json"] = simple("openapi", "This document", object)
	paths["/api/v1/dashboard"] = simple("dashboard_data", "What the dashboard shows: operations (filter with task, tool, outcome, since, limit), tools, tasks, savings, index", object)
	paths["/status"] = simple("server_status", "The status envelope", jsonContent(ref("statusEnvelope")))
	paths["/metrics"] = simple("metrics", "Prometheus metrics in the text format", text)
	health := simple("health", "200 while the process runs (no token needed)", object)
	health["get"].(map[string]any)["security"] = []any{}
	paths["/health"] = health
	paths["/ready"] = simple("ready", "200 once the first index is built, 503 before", object)
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "Cairn", "version": version,
			"description": "REST API of `cairn up`: every tool of the registry as POST /api/v1/tools/{name} with its JSON arguments; the answer is the tool's envelope."},
		"servers":  []any{map[string]any{"url": "/"}},
		"security": []any{map[string]any{"bearer": []any{}}},
		"paths":    paths,
		"components": map[string]any{
			"schemas":         schemas,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "the token in <state dir>/token"}},
		},
	}
}

// schemaName turns a tool name into a component name: search -> search.
func schemaName(tool string) string {
	parts := strings.Split(tool, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func jsonContent(schema any) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": schema}}
}

// envelopeSchema is the envelope of DESIGN §6 with data typed by the tool.
func envelopeSchema(data any) map[string]any {
	props := map[string]any{
		"answer":       map[string]any{"type": "string", "description": "one line for the agent"},
		"provenance":   ref("Provenance"),
		"next_actions": map[string]any{"type": "array", "items": ref("NextAction")},
		"meta":         ref("Meta"),
		"error":        ref("ErrorObject"),
	}
	if data != nil {
		props["data"] = data
	}
	return map[string]any{"type": "object", "properties": props, "required": []string{"provenance", "next_actions", "meta"}}
}

// schemaOf is the JSON schema of a Go type as plain JSON (nil types and
// types the generator cannot describe become an unconstrained schema).
// Optional fields (omitempty) are not required.
func schemaOf(t reflect.Type) any {
	if t == nil {
		return map[string]any{}
	}
	s, err := typeSchema(t)
	if err != nil {
		return map[string]any{}
	}
	b, err := json.Marshal(s)
	var out map[string]any
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		bug.Report("tools: schema of %s as JSON: %v", t, err)
		return map[string]any{}
	}
	delete(out, "$schema")
	return out
}
