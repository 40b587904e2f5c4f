// Package change answers what a change does and reaches: semantic_diff
// (definition by definition, with its blast radius), affected_tests and
// impact_analyze, over the reverse import graph and the reverse reference
// index it builds once per index version (Cache). It reads the request's
// snapshot through query.Engine and never writes.
package change

import "github.com/cairnhq/cairn/internal/query"

// analysis is change analysis over one request: the engine over its
// snapshot, and the views shared across requests.
type analysis struct {
	*query.Engine
	cache *Cache
}
