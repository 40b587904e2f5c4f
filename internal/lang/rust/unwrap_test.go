package rust

import "testing"

func TestWrappedResult(t *testing.T) {
	for sig, want := range map[string]string{
		"fn pop(&mut self) -> Option<HirFrame>":                    "HirFrame",
		"pub fn parse(&self) -> Result<Ast>":                       "Ast",
		"fn f<'a>(x: &'a str) -> Result<&'a mut ast::Span, Error>": "ast::Span",
		"fn g() -> Option<Box<Node<T>>> where T: Clone":            "Node",
		"fn h() -> std::result::Result<(u8, u8), E>":               "",
		"fn i() -> Option<(A, B)>":                                 "",
		"fn j() -> Option<Vec<u8>>":                                "Vec",
		"fn k() -> Result<HashMap<String, Vec<u8>>, io::Error>":    "HashMap",
		"fn l() -> Hir":                     "",
		"fn m(f: impl Fn() -> Option<Hir>)": "",
		"fn n(f: impl Fn() -> Option<Hir>) -> Result<Span, Error>":            "Span",
		"fn o() -> Option<&'static dyn Visitor>":                              "Visitor",
		"fn p() -> option::Option<Arc<Parser>>":                               "Parser",
		"fn q() -> result::Result<Parser, Box<dyn std::error::Error + Send>>": "Parser",
	} {
		if got := wrappedResult(sig); got != want {
			t.Errorf("wrappedResult(%q) = %q, want %q", sig, got, want)
		}
	}
}
