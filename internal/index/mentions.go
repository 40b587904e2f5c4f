package index

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// mentions lists the distinct names a blob's facts mention where resolution
// reads them: the names of its table (references, qualifiers, locals), the
// targets of its type relations and the sources, names and aliases of its
// imports, each as written and, when it is more than one identifier
// ("a.Config", "k8s.io/client-go/rest"), each identifier word in it. These
// are the blob's name postings (store.NameCandidates): a reference search
// reads only the files whose postings hold the name, and after a change the
// files whose links may resolve differently are found by the names whose
// symbols changed (relinkSet) with no file's facts or text read.
func mentions(facts *lang.Facts) []string {
	seen := make(map[string]bool, len(facts.Names))
	var out []string
	add := func(text string) {
		if text == "" || seen[text] {
			return
		}
		seen[text] = true
		out = append(out, text)
		if strings.IndexFunc(text, notIdentRune) < 0 {
			return
		}
		for _, w := range strings.FieldsFunc(text, notIdentRune) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	for _, n := range facts.Names {
		add(n)
	}
	for _, r := range facts.TypeRels {
		add(r.Target)
	}
	for _, im := range facts.Imports {
		add(im.Source)
		add(im.Name)
		add(im.Alias)
	}
	return out
}

func notIdentRune(r rune) bool { return !lang.IsIdentRune(r) }
