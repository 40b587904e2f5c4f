package lang

// MethodDispatch is which other methods a call may run besides the one it
// names, as the callers of a method count them.
type MethodDispatch uint8

const (
	// DispatchHierarchy: the methods overriding it and those implementing
	// it where their types declare so (classes; the default).
	DispatchHierarchy MethodDispatch = iota
	// DispatchMethodSet: a call through an interface method runs the
	// method of the same name and signature of any type whose method set
	// satisfies the interface; a call of a type's own method runs it, as
	// nothing overrides it (Go).
	DispatchMethodSet
	// DispatchUntyped: values carry no declared types to follow (Python's
	// duck typing); a call runs what it names.
	DispatchUntyped
)

// RelatedReferences is which other methods' references a reference query
// on a method includes, as the language's own tools count them.
type RelatedReferences uint8

const (
	// RelatedNone: a method's own references only (the default).
	RelatedNone RelatedReferences = iota
	// RelatedDispatch: also those of the interface methods a call may
	// dispatch through to it (DispatchMethodSet), from the packages that
	// can reach it (gopls).
	RelatedDispatch
	// RelatedFamily: also those of every method declaring the same member
	// up and down its hierarchy (typescript-language-server).
	RelatedFamily
)
