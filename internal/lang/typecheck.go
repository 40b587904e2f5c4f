package lang

import "context"

// Whether a type satisfies an interface, beyond having a method of every
// name: a language whose signatures syntax can compare (Go) gives the
// engines a TypeChecker (Language.Types). The engine that asks reads the
// index for it through a TypeSource, and the checker caches what it works
// out for as long as the engine's request lasts.

// Verdict is what a comparison of types read from syntax decides.
type Verdict uint8

const (
	VerdictNo        Verdict = iota
	VerdictUndecided         // a type syntax cannot read: a candidate, not a proven answer
	VerdictYes
)

// TypeDecl is a declaration as a type checker reads it.
type TypeDecl struct {
	ID    int64
	QName string
	Kind  DefKind
	Lang  string
	Facts *Facts // its file's facts (nil when it has none)
	Def   *Def   // its definition in Facts (nil when missing)
}

// TypeSource is what a type checker reads of the index.
type TypeSource interface {
	// Decl reads a symbol's declaration (nil when it is gone).
	Decl(ctx context.Context, id int64) (*TypeDecl, error)
	// Named lists the symbols of a qualified name, kinds and all.
	Named(ctx context.Context, qname string) ([]*TypeDecl, error)
	// Owner is the type a member belongs to; ok is false when it has none.
	Owner(ctx context.Context, id int64) (owner int64, ok bool, err error)
	// Source is the source text of a declaration ("" when out of reach).
	Source(ctx context.Context, d *TypeDecl) (string, error)
}

// TypeBindings bind the type parameters of a generic type (by qualified
// name) to the types a use of it writes, as the checker reads them.
type TypeBindings map[string]any

// Member is a member of a type as a checker compares it.
type Member struct {
	ID   int64
	Kind DefKind
	// Via is the qualified name of the type it is promoted or inherited
	// from ("" when declared on the type itself).
	Via string
	// Bindings bind the type parameters of the generic type it is promoted
	// from (TypeChecker.EmbedBindings), when it is.
	Bindings TypeBindings
}

// MemberSet is every member of a type syntax can see, by name.
type MemberSet struct {
	Members map[string]Member
	// Unknown are the supertypes, as written, whose members syntax cannot
	// see (declared outside the repository, or unresolved).
	Unknown []string
}

// Satisfaction is a checker's answer for one type and one interface.
type Satisfaction struct {
	Verdict Verdict
	Why     string // what kept it undecided
	// Pointer: some method is declared on a pointer receiver of the type
	// itself, so only a pointer to it satisfies the interface.
	Pointer bool
}

// TypeChecker compares the types a language's declarations state.
type TypeChecker interface {
	// Satisfies decides whether a type's members (impl) have the methods
	// of an interface (iface) named names with the same signatures.
	Satisfies(ctx context.Context, iface, impl *MemberSet, names []string) (Satisfaction, error)
	// EmbedBindings binds the type parameters of a generic type (embedded)
	// that a type (embedding) embeds to the type arguments the embedding
	// writes (written: the embedded type as written, S embeds G[*T]); nil
	// when the embedding writes none.
	EmbedBindings(ctx context.Context, embedding int64, written string, embedded int64) (TypeBindings, error)
}
