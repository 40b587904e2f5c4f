package surface

import "github.com/cairnhq/cairn/internal/lang"

// Walk visits the file's nodes once, in pre-order: a node goes to the handler
// of its kind, if any, then to s, which scans it for SQL. It returns the
// surfaces found.
func (x *Finder) Walk(s *Strings, handlers map[string]func(n int)) []lang.Surface {
	for i := 0; i < x.V.Len(); i++ {
		if h := handlers[x.V.Kind(i)]; h != nil {
			h(i)
		}
		s.Visit(i)
	}
	return x.Out
}

// Framework names the first framework the file imports, "" when none:
// byImport pairs an import source (a file importing it or a source under it
// uses the framework) with the framework's name, in order of preference.
func (x *Finder) Framework(byImport [][2]string) string {
	for _, fw := range byImport {
		if x.Imports(fw[0]) {
			return fw[1]
		}
	}
	return ""
}

// Key records a configuration key read from node n: the literal str reads
// there, else the expression's text with low confidence. Nothing is recorded
// when n is -1.
func (x *Finder) Key(n int, str func(n int) (string, bool), framework, method string) {
	if n < 0 {
		return
	}
	var s *lang.Surface
	if k, ok := str(n); ok {
		s = x.Add(lang.SurfConfigKey, n, k, framework, lang.ConfHigh)
	} else {
		s = x.Add(lang.SurfConfigKey, n, x.Expr(n), framework, lang.ConfLow)
	}
	s.Method = method
}

// Log records the message of a log call: the first of the candidate
// argument nodes that lit reads as a string (low confidence when it is built
// at run time), else the text of node other with low confidence.
func (x *Finder) Log(candidates []int, lit Literal, other int, framework, level string) {
	for _, a := range candidates {
		if m, ok, built := lit(a); ok {
			s := x.Add(lang.SurfLog, a, m, framework, builtConf(built))
			s.Method = level
			return
		}
	}
	s := x.Add(lang.SurfLog, other, x.Expr(other), framework, lang.ConfLow)
	s.Method = level
}

// builtConf is the confidence of a value read from a literal: low when it is
// built at run time.
func builtConf(built bool) lang.Confidence {
	if built {
		return lang.ConfLow
	}
	return lang.ConfHigh
}
