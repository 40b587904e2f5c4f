package mcpserver

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// Resource URIs. The file template uses reserved expansion ({+path}) so a
// repo-relative path keeps its slashes: cairn://file/pkg/server/server.go.
const (
	statusURI      = "cairn://status"
	symbolTemplate = "cairn://symbol/{id}"
	symbolPrefix   = "cairn://symbol/"
	fileTemplate   = "cairn://file/{+path}"
	filePrefix     = "cairn://file/"
	archURI        = "cairn://architecture"
	moduleTemplate = "cairn://module/{+id}"
	modulePrefix   = "cairn://module/"
	cardTemplate   = "cairn://card/{+key}"
	cardPrefix     = "cairn://card/"
	jsonMIME       = "application/json"
)

// fileBudget reads a whole file within the hard caps of read_source.
var fileBudget = map[string]any{"limit": tools.LinesBudget.Cap, "max_chars": tools.CharsBudget.Cap}

func (a *adapter) addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: statusURI, Name: "status", Title: "Index status", MIMEType: jsonMIME,
		Description: "The status tool's envelope: index state and epoch, freshness, languages, repository state."},
		a.resource("", "status", nil))
	s.AddResource(&mcp.Resource{URI: archURI, Name: "architecture", Title: "Architecture", MIMEType: jsonMIME,
		Description: "The architecture envelope: modules and the classified dependency edges between them."},
		a.resource("", "architecture", nil))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: moduleTemplate, Name: "module", Title: "Module", MIMEType: jsonMIME,
		Description: "One module of the architecture (node id such as go:svc, module name or root directory) with its dependency edges."},
		a.resource(modulePrefix, "architecture", func(id string) map[string]any {
			return map[string]any{"module": id, "include_external": true}
		}))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: symbolTemplate, Name: "symbol", Title: "Symbol card", MIMEType: jsonMIME,
		Description: "The symbol_get envelope of a symbol named by id (sym_...), qualified name or unique suffix (percent-encoded)."},
		a.resource(symbolPrefix, "symbol_get", func(id string) map[string]any {
			return map[string]any{"symbol": id}
		}))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: cardTemplate, Name: "card", Title: "Spec card", MIMEType: jsonMIME,
		Description: "The card_get envelope of a spec card (key such as auth/login): body, relations and the code linked with @see."},
		a.resource(cardPrefix, "card_get", func(key string) map[string]any {
			return map[string]any{"key": key}
		}))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: fileTemplate, Name: "file", Title: "File", MIMEType: jsonMIME,
		Description: "The read_source envelope of a whole file (repo-relative path), within read_source's hard caps (400 lines, 40k characters)."},
		a.resource(filePrefix, "read_source", func(p string) map[string]any {
			args := map[string]any{"path": p}
			for k, v := range fileBudget {
				args[k] = v
			}
			return args
		}))
}

// resource answers reads of a resource with the envelope of tool. For a
// template, prefix is what comes before the URI's variable part and args
// makes the tool's arguments of that part; a fixed resource has neither.
func (a *adapter) resource(prefix, tool string, args func(string) map[string]any) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if args == nil {
			return a.read(ctx, req.Params.URI, tool, nil)
		}
		rest, err := tail(req.Params.URI, prefix)
		if err != nil {
			return nil, err
		}
		return a.read(ctx, req.Params.URI, tool, args(rest))
	}
}

// tail is the percent-decoded rest of uri after prefix.
func tail(uri, prefix string) (string, error) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok || rest == "" {
		return "", mcp.ResourceNotFoundError(uri)
	}
	v, err := url.PathUnescape(rest)
	if err != nil {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad percent-encoding in " + uri}
	}
	return v, nil
}

// read runs a tool for a resource and returns its envelope as the resource's
// JSON. A failed call is a JSON-RPC error (resources have no isError): not
// found as the protocol's resource-not-found, anything else by kind, with the
// envelope's error object as data.
func (a *adapter) read(ctx context.Context, uri, tool string, args map[string]any) (*mcp.ReadResourceResult, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	env := tools.Invoke(ctx, a.svc.Env(), tool, raw)
	if env.Error != nil {
		return nil, resourceError(uri, env.Error)
	}
	b, err := protocol.Canonical(env)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: jsonMIME, Text: string(b)}}}, nil
}

func resourceError(uri string, e *protocol.ErrorObject) error {
	data, _ := json.Marshal(map[string]any{"uri": uri, "error": e})
	// The protocol reports a missing resource as invalid params, like any
	// request the caller has to change; the rest are the server's failures.
	code := int64(jsonrpc.CodeInternalError)
	switch e.Code {
	case errs.NotFound.Code(), errs.FileNotFound.Code(), errs.SymbolDeleted.Code(), errs.InvalidArgument.Code(),
		errs.Ambiguous.Code(), errs.OutsideRepo.Code(), errs.Refused.Code():
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: e.Code + ": " + e.Message, Data: data}
}
