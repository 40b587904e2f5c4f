package query

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
)

// Java's and C#'s new Box(4) name the class, and syntax links them to it;
// they run the constructor that takes their arguments. A reference search
// on a constructor counts them: the calls of its class that only it takes,
// and, as anchored candidates with relation overload, those another
// constructor of the class takes too.

// Instantiates reports whether ref, linked to target, instantiates the class
// of constructor r (named like it).
func Instantiates(r *Resolved, target int64, ref lang.Ref) bool {
	return lang.DefKind(r.Row.Kind) == lang.KindConstructor && target == r.Row.Parent && target != 0 && ref.Role == lang.RoleCall
}

// instantiation is how a call of the class passing args counts for its
// constructor id, of the overloads ov (nil: the class's only one): a match
// with the link's tier, an anchored candidate or another's.
func instantiation(ov *OverloadSet, id int64, args uint16, tier string) (synStatus, string, string) {
	switch {
	case ov == nil || ov.Only(id, args):
		return synMatch, "", tier
	case ov.Takes(id, args):
		return synAnchored, RelationOverload, index.TierAnchored.String()
	}
	return synOther, "", tier
}

// instantiatedAs is the name of the class of constructor r when r is named
// apart from it (TypeScript's and JavaScript's constructor, PHP's
// __construct): new Box(4) names the class and runs r. "" for any other
// symbol, and for a constructor named like its class (Java's, C#'s), whose
// own name the instantiations carry.
func (e *Engine) instantiatedAs(ctx context.Context, r *Resolved) (string, error) {
	class, ok, err := e.TypeOfConstructor(ctx, r.Row)
	if err != nil || !ok || class.Name == r.Row.Name {
		return "", err
	}
	return class.Name, nil
}
