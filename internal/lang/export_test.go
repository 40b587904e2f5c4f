package lang

import (
	"fmt"
	"sort"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// QueryCaptures runs l's query over src in bands of band levels (0: in one
// pass) and returns its captures as sorted strings, without the matches they
// belong to (banding may order the matches differently).
func QueryCaptures(l *Language, src []byte, band uint32) ([]string, error) {
	c, err := compile(l)
	if err != nil {
		return nil, err
	}
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(c.lang); err != nil {
		return nil, err
	}
	tree := parse(p, src)
	defer tree.Close()
	q := newQueryCursor()
	defer q.close()
	var out []string
	for _, cp := range q.run(c.query, tree, nil, band) {
		out = append(out, fmt.Sprintf("%d %d %d-%d %d", cp.pattern, cp.index, cp.sb, cp.eb, cp.sym))
	}
	sort.Strings(out)
	return out, nil
}
