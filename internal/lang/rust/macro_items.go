package rust

import (
	"bytes"

	"github.com/cairnhq/cairn/internal/lang"
)

// Macros that wrap items (bitflags! { pub struct Flags … }, thread_local! {
// static X: … }, a crate's own ast_struct! { pub struct Expr { … } })
// expand to the items they are given, give or take what they add; their
// braces are a token tree to the grammar, so the structs, enums and
// functions in them would be no definitions, and every use of them
// unresolved. unwrap rewrites such an invocation, in item position,
// name! { ITEMS } to name!{} ITEMS with the closing brace blanked, byte for
// byte at the same offsets: the macro's name stays a reference to the
// macro, and the items parse as items where they stand.

// unwrap is the Language's Unwrap hook: the rewritten source, or nil when
// no invocation wraps items.
func unwrap(v *lang.View) []byte {
	var out []byte
	src := v.Src()
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "macro_invocation" || !itemPosition(v, n) {
			continue
		}
		bang, open, end, ok := wrapsItems(v, n)
		if !ok {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		out[bang+1], out[bang+2] = '{', '}'
		for i := bang + 3; i <= open; i++ {
			out[i] = ' '
		}
		out[end-1] = ' '
	}
	return out
}

// itemPosition reports whether macro invocation n stands where an item
// does: at the top of the file or in the body of a mod or an impl.
func itemPosition(v *lang.View, n int) bool {
	switch v.Kind(v.Parent(n)) {
	case "source_file", "declaration_list":
		return true
	}
	return false
}

// wrapsItems finds the "!" of invocation n and its braces (open, and end
// just past the closing one) when the braces begin with an item and
// nothing but spaces stands between "!" and "{" — at least one, for the
// "{}" that replaces them.
func wrapsItems(v *lang.View, n int) (bang, open, end int, ok bool) {
	tt := v.ChildOfKind(n, "token_tree")
	if tt < 0 {
		return 0, 0, 0, false
	}
	src := v.Src()
	open, end = v.Bytes(tt)
	if src[open] != '{' || src[end-1] != '}' {
		return 0, 0, 0, false
	}
	bang = open - 1
	for bang >= 0 && (src[bang] == ' ' || src[bang] == '\t') {
		bang--
	}
	if bang < 0 || src[bang] != '!' || open-bang < 2 {
		return 0, 0, 0, false
	}
	return bang, open, end, beginsWithItem(src[open+1 : end-1])
}

// itemKeywords are the words an item begins with once its attributes and
// visibility are read.
var itemKeywords = [][]byte{[]byte("struct"), []byte("enum"), []byte("union"), []byte("fn"), []byte("const"),
	[]byte("static"), []byte("type"), []byte("trait"), []byte("impl"), []byte("mod"), []byte("unsafe"),
	[]byte("async"), []byte("extern"), []byte("use")}

// beginsWithItem reports whether b, past white space, comments, attributes
// and a visibility, begins with an item's keyword.
func beginsWithItem(b []byte) bool {
	b = skipTrivia(b)
	for len(b) > 0 && b[0] == '#' {
		rest := bytes.TrimLeft(b[1:], "!")
		if len(rest) == 0 || rest[0] != '[' {
			return false
		}
		close := matching(rest)
		if close < 0 {
			return false
		}
		b = skipTrivia(rest[close+1:])
	}
	if word(b, []byte("pub")) {
		b = skipTrivia(b[3:])
		if len(b) > 0 && b[0] == '(' {
			close := matching(b)
			if close < 0 {
				return false
			}
			b = skipTrivia(b[close+1:])
		}
	}
	for _, k := range itemKeywords {
		if word(b, k) {
			return true
		}
	}
	return false
}

// word reports whether b begins with the word w.
func word(b, w []byte) bool {
	if !bytes.HasPrefix(b, w) {
		return false
	}
	if len(b) == len(w) {
		return true
	}
	c := b[len(w)]
	return !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
}

// skipTrivia drops white space and comments from the front of b.
func skipTrivia(b []byte) []byte {
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		switch {
		case bytes.HasPrefix(b, []byte("//")):
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return nil
			}
			b = b[i+1:]
		case bytes.HasPrefix(b, []byte("/*")):
			i := bytes.Index(b[2:], []byte("*/"))
			if i < 0 {
				return nil
			}
			b = b[i+4:]
		default:
			return b
		}
	}
}

// matching is the index of the bracket that closes b[0] ('[' or '('),
// counting nested brackets of the same kind and skipping string literals;
// -1 when none does.
func matching(b []byte) int {
	open := b[0]
	close := byte(']')
	if open == '(' {
		close = ')'
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
