package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
)

type progressKey struct{}

// WithProgress returns a context that carries a progress callback for the
// call made with it. Adapters use it to route the progress of long work to
// one request (MCP progress notifications) rather than to the whole process,
// which Env.Progress serves.
func WithProgress(ctx context.Context, fn func(index.Progress)) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressFrom returns the progress callback carried by ctx, or nil.
func ProgressFrom(ctx context.Context) func(index.Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(index.Progress))
	return fn
}

// progressFor combines the process-wide progress callback with the one the
// request carries; nil when neither is set.
func progressFor(ctx context.Context, env *Env) func(index.Progress) {
	req := ProgressFrom(ctx)
	var global func(index.Progress)
	if env != nil {
		global = env.Progress
	}
	switch {
	case req == nil:
		return global
	case global == nil:
		return req
	}
	return func(p index.Progress) {
		global(p)
		req(p)
	}
}
