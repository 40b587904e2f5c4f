package tools

// Arguments documents the tool's arguments as describe does: read from its
// input type's json and jsonschema tags, embedded structs (Common) flattened.
// Adapters that present the arguments in their own terms (the CLI's flags)
// take their descriptions from here rather than writing them again.
func (t *Tool) Arguments() []ArgDoc { return argDocs(t.In) }

// Headline is the first sentence of the summary: the line describe lists the
// tool with.
func (t *Tool) Headline() string { return firstSentence(t.Summary) }
