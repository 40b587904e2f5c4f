package refactor

import (
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// A Java or C# class implements an interface of its platform without a
// word on the method that does it: class Job implements Runnable { public
// void run() }, class Pool : IDisposable { public void Dispose() }. (Java's
// @Override is optional; C# marks only overrides of class members.) A
// rename of run or Dispose then breaks the build, and the index cannot see
// it: the interface is declared outside the repository. For the platform's
// common interfaces, whose members are known, a method that a class naming
// the interface declares with a member's name and number of parameters is
// refused.

// platformMembers are members of common interfaces of each language's
// platform, by interface name: member name -> parameter count.
var platformMembers = map[string]map[string]map[string]int{
	"java": {
		"Runnable":      {"run": 0},
		"Callable":      {"call": 0},
		"Comparable":    {"compareTo": 1},
		"Comparator":    {"compare": 2},
		"Iterable":      {"iterator": 0, "forEach": 1, "spliterator": 0},
		"Iterator":      {"hasNext": 0, "next": 0, "remove": 0, "forEachRemaining": 1},
		"AutoCloseable": {"close": 0},
		"Closeable":     {"close": 0},
		"Supplier":      {"get": 0},
		"Function":      {"apply": 1},
		"BiFunction":    {"apply": 2},
		"Consumer":      {"accept": 1},
		"BiConsumer":    {"accept": 2},
		"Predicate":     {"test": 1},
		"CharSequence":  {"length": 0, "charAt": 1, "subSequence": 2},
		"Appendable":    {"append": 1},
		"Readable":      {"read": 1},
		"Flushable":     {"flush": 0},
	},
	"csharp": {
		"IDisposable":          {"Dispose": 0},
		"IAsyncDisposable":     {"DisposeAsync": 0},
		"IEnumerable":          {"GetEnumerator": 0},
		"IEnumerator":          {"MoveNext": 0, "Reset": 0},
		"IComparable":          {"CompareTo": 1},
		"IComparer":            {"Compare": 2},
		"IEquatable":           {"Equals": 1},
		"IEqualityComparer":    {"Equals": 2, "GetHashCode": 1},
		"ICloneable":           {"Clone": 0},
		"IFormattable":         {"ToString": 2},
		"IObserver":            {"OnNext": 1, "OnError": 1, "OnCompleted": 0},
		"IObservable":          {"Subscribe": 1},
		"IServiceProvider":     {"GetService": 1},
		"ICollection":          {"Add": 1, "Clear": 0, "Contains": 1, "CopyTo": 2, "Remove": 1},
		"IList":                {"IndexOf": 1, "Insert": 2, "RemoveAt": 1},
		"IDictionary":          {"Add": 2, "ContainsKey": 1, "Remove": 1, "TryGetValue": 2},
		"ISerializable":        {"GetObjectData": 2},
		"IConvertible":         {"GetTypeCode": 0},
		"IAsyncEnumerable":     {"GetAsyncEnumerator": 1},
		"IAsyncEnumerator":     {"MoveNextAsync": 0},
		"IProgress":            {"Report": 1},
		"IStructuralEquatable": {"Equals": 2, "GetHashCode": 1},
	},
}

// platformMember is the platform interface member ("IDisposable.Dispose")
// that method o implements by its name and number of parameters, when its
// class names that interface among its bases; "" otherwise. It is asked of
// methods tied to no method of the repository: an interface of the
// repository that has the name would have tied them.
func platformMember(o *query.Resolved) string {
	members := platformMembers[o.File.Lang]
	if members == nil || o.Def == nil || o.Facts == nil || o.Def.Parent < 0 {
		return ""
	}
	arity := lang.ArityOf(o.Def.Signature, o.Row.Name)
	for _, rel := range o.Facts.TypeRels {
		if rel.Def != o.Def.Parent {
			continue
		}
		base := baseName(rel.Target)
		n, ok := members[base][o.Row.Name]
		if !ok || !arity.Known || arity.Min != n || arity.Max != n {
			continue
		}
		return base + "." + o.Row.Name
	}
	return ""
}

// baseName is the simple name of a base type as written: Comparable of
// java.lang.Comparable<T>, IEquatable of System.IEquatable<Point>.
func baseName(t string) string {
	if i := strings.IndexAny(t, "<("); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	if i := strings.LastIndexAny(t, ".:"); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// checkPlatformMembers refuses the rename of a family whose top (or the
// method itself, without a family) implements a platform interface member.
func checkPlatformMembers(card *query.SymbolCard, r *query.Resolved, tops []*query.Resolved) error {
	if platformMembers[r.File.Lang] == nil {
		return nil
	}
	if len(tops) == 0 {
		tops = []*query.Resolved{r}
	}
	for _, t := range tops {
		if member := platformMember(t); member != "" {
			return &errs.Error{Kind: errs.Precondition,
				Msg: fmt.Sprintf("cannot rename %s: %s implements %s, a member of an interface of the platform, declared outside the repository, which a rename cannot change",
					card.QName, who(t, r), member),
				Details: map[string]any{"reason": "external_family", "external": member},
				Fixes:   []string{"keep the name: the interface fixes it"}}
		}
	}
	return nil
}
