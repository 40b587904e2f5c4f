package semantic

import (
	"strings"

	"github.com/scip-code/scip/bindings/go/scip"
)

// NameGuesses turns a SCIP symbol into the Cairn names it most likely has,
// best first, for symbols no imported index knows: the namespace
// descriptors give the package or file, the others the lexical path. A Go
// symbol "scip-go gomod m v `m/rest`/Config#Host." gives m/rest.Config.Host;
// a TypeScript one "... `src/a.ts`/Foo#bar()." gives src/a.ts#Foo.bar; and
// every symbol gives its lexical path alone (Config.Host) as a suffix.
func NameGuesses(symbol string) []string {
	s, err := scip.ParseSymbol(symbol)
	if err != nil || len(s.Descriptors) == 0 {
		return nil
	}
	var ns, lex []string
	for _, d := range s.Descriptors {
		switch d.Suffix {
		case scip.Descriptor_Namespace:
			if len(lex) == 0 {
				ns = append(ns, d.Name)
			} else {
				lex = append(lex, d.Name)
			}
		case scip.Descriptor_Type, scip.Descriptor_Term, scip.Descriptor_Method, scip.Descriptor_Meta, scip.Descriptor_Macro:
			lex = append(lex, d.Name)
		case scip.Descriptor_TypeParameter, scip.Descriptor_Parameter, scip.Descriptor_Local:
			return nil // not something Cairn names
		}
	}
	if len(lex) == 0 {
		return nil
	}
	path := strings.Join(lex, ".")
	var out []string
	if len(ns) > 0 {
		pkg := strings.Join(ns, "/")
		out = append(out, pkg+"."+path, pkg+"#"+path)
		if dotted := strings.Join(ns, "."); dotted != pkg {
			out = append(out, dotted+"."+path)
		}
	}
	return append(out, path)
}
