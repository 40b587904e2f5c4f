package query

// LinkedCard is a spec card linked with @see to code an answer is about
// (the tools fill it in from internal/cards).
type LinkedCard struct {
	Key     string `json:"key"`
	Status  string `json:"status,omitempty"`
	Summary string `json:"summary,omitempty"`
	// Via is the code entity whose comment holds the @see (the symbol, what
	// encloses it, or its file), or the path by which a change reaches it.
	Via string `json:"via,omitempty"`
	// Missing: no card file defines the key.
	Missing bool `json:"missing,omitempty"`
}

// CardsSummary counts the spec cards of a repository and the code that
// links to them (map_repo; the tools fill it in from internal/cards).
type CardsSummary struct {
	Cards    int            `json:"cards"`
	ByStatus map[string]int `json:"by_status"`
	// LinkedFiles and UnlinkedFiles count the code files with and without
	// a @see link.
	LinkedFiles   int `json:"linked_files"`
	UnlinkedFiles int `json:"unlinked_files"`
}
