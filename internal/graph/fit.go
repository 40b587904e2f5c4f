package graph

import (
	"encoding/json"
	"strings"
)

// Trim says what fitting a graph into a size budget left out.
type Trim struct {
	Nodes, Unresolved, Dynamic, External int
}

// Any reports whether anything was left out.
func (t Trim) Any() bool { return t.Nodes+t.Unresolved+t.Dynamic+t.External > 0 }

// Fit makes the JSON encoding of the result at most max bytes: it drops the
// last nodes (the deepest level first, its tests first: each level is
// ranked) with their edges and calls, then external, dynamic and
// unresolved calls from the end, and counts in each level's Cut the tests
// and others it dropped. The root always stays.
func (res *Result) Fit(max int) Trim {
	var trim Trim
	size := jsonSize(res)
	if size <= max {
		return trim
	}
	for size > max && len(res.Nodes) > 1 {
		n := res.Nodes[len(res.Nodes)-1]
		res.Nodes = res.Nodes[:len(res.Nodes)-1]
		size -= jsonSize(n) + 1
		trim.Nodes++
		for i := range res.Levels {
			if l := &res.Levels[i]; l.Depth == n.Depth && l.Kept > 0 {
				l.Kept--
				l.Cut.add(isTestPath(string(n.Location.Path)))
				l.Cut.Reason = joinReason(l.Cut.Reason, "max_chars")
			}
		}
		res.Edges = dropWhere(res.Edges, func(e Edge) bool { return e.From == n.ID || e.To == n.ID }, &size, nil)
		res.Unresolved = dropWhere(res.Unresolved, func(u UnresolvedCall) bool { return u.From == n.ID }, &size, nil)
		res.Dynamic = dropWhere(res.Dynamic, func(d DynamicCall) bool { return d.From == n.ID }, &size, nil)
		res.External = dropWhere(res.External, func(x ExternalCall) bool { return x.From == n.ID }, &size, nil)
	}
	for size > max && len(res.External) > 0 {
		size -= jsonSize(res.External[len(res.External)-1]) + 1
		res.External = res.External[:len(res.External)-1]
		trim.External++
	}
	for size > max && len(res.Dynamic) > 0 {
		size -= jsonSize(res.Dynamic[len(res.Dynamic)-1]) + 1
		res.Dynamic = res.Dynamic[:len(res.Dynamic)-1]
		trim.Dynamic++
	}
	for size > max && len(res.Unresolved) > 0 {
		size -= jsonSize(res.Unresolved[len(res.Unresolved)-1]) + 1
		res.Unresolved = res.Unresolved[:len(res.Unresolved)-1]
		trim.Unresolved++
	}
	return trim
}

// dropWhere removes the items matching drop, subtracting their sizes.
func dropWhere[T any](xs []T, drop func(T) bool, size *int, count *int) []T {
	out := xs[:0]
	for _, x := range xs {
		if drop(x) {
			*size -= jsonSize(x) + 1
			if count != nil {
				*count++
			}
			continue
		}
		out = append(out, x)
	}
	return out
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// joinReason adds a reason to those a cut already has (limit_per_level+max_chars).
func joinReason(reasons, r string) string {
	switch {
	case reasons == "":
		return r
	case reasons == r || strings.HasSuffix(reasons, "+"+r):
		return reasons
	}
	return reasons + "+" + r
}
