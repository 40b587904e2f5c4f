package ecma

// Test hooks into unexported helpers.
var (
	ChildForTest       = child
	ChildrenForTest    = children
	ChildOfKindForTest = childOfKind
)
