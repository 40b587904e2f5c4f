// Package obs is Cairn's operational view of itself: Prometheus metrics,
// the recent operations and errors behind the dashboard, the running totals
// of tokens saved, structured logging, and the Monitor that every tool call
// passes through (task budgets before, counters, ledger and metrics after).
// Adapters tell it who is calling (a Client in the context); the tool
// registry calls it around each call. It never imports the registry or the
// adapters, and it decides nothing for a client: it measures and reports.
package obs

import "context"

// Client is who makes a call: one connection (an MCP session) or one kind of
// connectionless caller (REST, the CLI).
type Client struct {
	// ID names the connection: unique per MCP session; "rest" or "cli" for
	// callers without one.
	ID string `json:"id"`
	// Name is what the client calls itself (MCP clientInfo.name), if known.
	Name string `json:"name,omitempty"`
	// Transport is stdio, http (MCP over HTTP), rest or cli.
	Transport string `json:"transport"`
	// Session is set for clients whose connection holds tasks (MCP): a
	// task opened on it applies to its later calls without naming it.
	Session bool `json:"-"`
}

type clientKey struct{}
type taskKey struct{}
type quietKey struct{}

// WithClient tells the calls made with ctx who is calling.
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// ClientOf is the caller of ctx; unknown callers are in-process ("cli").
func ClientOf(ctx context.Context) Client {
	if c, ok := ctx.Value(clientKey{}).(Client); ok {
		return c
	}
	return Client{ID: "cli", Transport: "cli"}
}

// WithTask names the task the calls made with ctx run in (REST clients send
// it in the X-Cairn-Task header on every call).
func WithTask(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, taskKey{}, id)
}

// TaskOf is the task named for ctx ("" when none was named).
func TaskOf(ctx context.Context) string {
	id, _ := ctx.Value(taskKey{}).(string)
	return id
}

// Quiet marks calls that Cairn makes for itself (the dashboard reading
// status): they are not operations of any client and are not recorded.
func Quiet(ctx context.Context) context.Context { return context.WithValue(ctx, quietKey{}, true) }

// IsQuiet reports whether ctx was marked Quiet.
func IsQuiet(ctx context.Context) bool { q, _ := ctx.Value(quietKey{}).(bool); return q }
