package rust

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// The arguments of an attribute (#[cfg(feature = "full")], #[doc(hidden)],
// #[allow(dead_code)], #[cfg_attr(doc_cfg, doc(cfg(unix)))]) are
// configuration, not code: their names are no references. Only derive's
// arguments name code, the derive macros (#[derive(Clone, Parse)], also
// inside cfg_attr).

// attributeDrops adds to drop the spans of the tokens of attribute n's
// arguments that name no code.
func attributeDrops(v *lang.View, n int, drop []lang.Span) []lang.Span {
	args := langutil.Child(v, n, "arguments")
	if args < 0 || v.Kind(args) != "token_tree" {
		return drop
	}
	if path := langutil.Children(v, n); len(path) > 0 && v.Text(path[0]) == "derive" {
		return drop
	}
	return configTokens(v, args, drop)
}

// configTokens adds the spans of the tokens of token tree n, and of the
// trees inside it but those of derive(…).
func configTokens(v *lang.View, n int, drop []lang.Span) []lang.Span {
	kids := v.Children(n)
	for k, c := range kids {
		if v.Kind(c) != "token_tree" {
			drop = append(drop, v.Span(c))
			continue
		}
		if k == 0 || v.Kind(kids[k-1]) != "identifier" || v.Text(kids[k-1]) != "derive" {
			drop = configTokens(v, c, drop)
		}
	}
	return drop
}
