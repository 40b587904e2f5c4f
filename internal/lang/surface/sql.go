package surface

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Table is a table named in SQL text, with the verb of the clause naming it.
type Table struct {
	Name string // as written, without quotes: users, public.users, dbo.Orders
	Verb string // select, insert, update, delete, create, alter, drop, truncate, merge
}

// Hole marks where a built string had an interpolation ("${x}", "{x}", "%s");
// hooks replace interpolations with it before calling SQLTables.
const Hole = "\x00"

// SQLTables finds the tables a SQL statement in a string literal names. sure
// is false when the text only looks like SQL weakly (lower-case keywords
// without SQL punctuation); ok is false when it does not look like SQL at all
// (prose such as "Select a file from the list" is rejected).
func SQLTables(s string) (tables []Table, sure, ok bool) {
	if len(s) < 10 || !mayBeSQL(s) {
		return nil, false, false
	}
	toks := sqlTokens(s, 400)
	if len(toks) < 2 {
		return nil, false, false
	}
	verbAt := 0
	for verbAt < len(toks) && toks[verbAt].text == "(" {
		verbAt++
	}
	if verbAt >= len(toks) {
		return nil, false, false
	}
	first := toks[verbAt]
	verb := strings.ToLower(first.text)
	upper := first.word && first.text == strings.ToUpper(first.text)
	switch verb {
	case "select", "insert", "update", "delete", "with", "create", "alter", "drop", "truncate", "merge", "replace", "upsert":
		if !upper && first.text != verb {
			return nil, false, false // "Select a file", "Update the settings": prose
		}
	default:
		// a fragment: "... FROM users WHERE ...", "SELECT ... FROM" inside;
		// only with upper-case keywords
		if !hasUpperPair(toks) {
			return nil, false, false
		}
		verb, upper = "select", true
	}
	if !statementShape(verb, toks[verbAt:]) {
		return nil, false, false
	}
	sure = upper || hasSQLPunct(s)
	stmtVerb := verb
	if verb == "with" {
		stmtVerb = "select"
	}
	seen := map[Table]bool{}
	add := func(name, v string) {
		if name == "" {
			return
		}
		t := Table{Name: name, Verb: v}
		if !seen[t] {
			seen[t] = true
			tables = append(tables, t)
		}
	}
	var parens []string // function name (upper) of each open parenthesis
	for i := verbAt; i < len(toks); i++ {
		t := toks[i]
		switch t.text {
		case "(":
			fn := ""
			if i > 0 && toks[i-1].word {
				fn = strings.ToUpper(toks[i-1].text)
			}
			parens = append(parens, fn)
			continue
		case ")":
			if len(parens) > 0 {
				parens = parens[:len(parens)-1]
			}
			continue
		}
		if !t.word {
			continue
		}
		kw := strings.ToUpper(t.text)
		switch kw {
		case "FROM":
			if len(parens) > 0 && inFunction[parens[len(parens)-1]] {
				continue // EXTRACT(YEAR FROM x), TRIM(x FROM y)
			}
			if i > 0 && strings.EqualFold(toks[i-1].text, "DISTINCT") {
				continue // IS DISTINCT FROM
			}
			v := "select"
			if stmtVerb == "delete" && len(parens) == 0 {
				v = "delete"
			}
			i = readTableList(toks, i+1, v, add)
		case "JOIN":
			i = readTable(toks, i+1, "select", false, add)
		case "INTO":
			v := stmtVerb
			if v != "insert" && v != "merge" && v != "replace" && v != "upsert" {
				v = "insert"
			}
			if v == "replace" || v == "upsert" {
				v = "insert"
			}
			i = readTable(toks, i+1, v, true, add)
		case "UPDATE":
			if i == verbAt || (i > 0 && toks[i-1].text == ")" && stmtVerb == "select") {
				i = readTable(toks, i+1, "update", false, add)
			}
		case "TABLE":
			switch stmtVerb {
			case "create", "alter", "drop", "truncate":
				j := i + 1
				for j < len(toks) && toks[j].word && skipAfterTable[strings.ToUpper(toks[j].text)] {
					j++
				}
				i = readTable(toks, j, stmtVerb, true, add)
			}
		case "TRUNCATE":
			if i == verbAt && i+1 < len(toks) && !strings.EqualFold(toks[i+1].text, "TABLE") {
				i = readTable(toks, i+1, "truncate", false, add)
			}
		}
	}
	return tables, sure, true
}

var inFunction = map[string]bool{"EXTRACT": true, "TRIM": true, "SUBSTRING": true, "POSITION": true, "OVERLAY": true, "SUBSTR": true}

var skipAfterTable = map[string]bool{"IF": true, "NOT": true, "EXISTS": true, "ONLY": true}

// readTableList reads "t [alias] (, t [alias])*" and returns the index of the
// last token consumed.
func readTableList(toks []sqlToken, i int, verb string, add func(string, string)) int {
	for {
		i = readTable(toks, i, verb, false, add)
		// skip an alias: [AS] name
		j := i + 1
		if j < len(toks) && strings.EqualFold(toks[j].text, "AS") {
			j++
		}
		if j < len(toks) && toks[j].word && !sqlKeyword[strings.ToUpper(toks[j].text)] {
			i = j
			j++
		}
		if j < len(toks) && toks[j].text == "," && j+1 < len(toks) && toks[j+1].text != "(" {
			i = j + 1
			continue
		}
		return i
	}
}

// readTable reads one table name at toks[i] (skipping ONLY, LATERAL) and
// returns the index of the last token consumed.
func readTable(toks []sqlToken, i int, verb string, parenOK bool, add func(string, string)) int {
	for i < len(toks) && toks[i].word && (strings.EqualFold(toks[i].text, "ONLY") || strings.EqualFold(toks[i].text, "LATERAL")) {
		i++
	}
	if i >= len(toks) {
		return i
	}
	t := toks[i]
	if !t.word && !t.quoted {
		return i - 1
	}
	if t.word && sqlKeyword[strings.ToUpper(t.text)] {
		return i - 1
	}
	if !parenOK && i+1 < len(toks) && toks[i+1].text == "(" {
		return i // a table-valued function: unnest(...), generate_series(...)
	}
	name := t.text
	if t.word && stopword[strings.ToLower(name)] && !t.quoted {
		return i
	}
	if strings.EqualFold(name, "dual") {
		return i
	}
	add(name, verb)
	return i
}

// statementShape checks the few things every statement of the verb has.
func statementShape(verb string, toks []sqlToken) bool {
	has := func(words ...string) bool {
		for _, t := range toks {
			for _, w := range words {
				if t.word && strings.EqualFold(t.text, w) {
					return true
				}
			}
		}
		return false
	}
	switch verb {
	case "select":
		return has("FROM")
	case "insert", "replace", "upsert":
		return has("INTO")
	case "update":
		return has("SET")
	case "delete":
		return has("FROM")
	case "create", "alter", "drop", "truncate":
		return has("TABLE") || verb == "truncate"
	case "merge":
		return has("INTO") || has("USING")
	case "with":
		return has("AS") && (has("SELECT") || has("INSERT") || has("UPDATE") || has("DELETE"))
	}
	return false
}

// hasUpperPair reports an upper-case SELECT .. FROM, INSERT INTO, UPDATE ..
// SET or DELETE FROM inside a fragment.
func hasUpperPair(toks []sqlToken) bool {
	at := map[string]int{}
	for i, t := range toks {
		if t.word {
			if _, ok := at[t.text]; !ok {
				at[t.text] = i
			}
		}
	}
	before := func(a, b string) bool {
		i, ok1 := at[a]
		j, ok2 := at[b]
		return ok1 && ok2 && i < j
	}
	return before("SELECT", "FROM") || before("INSERT", "INTO") || before("DELETE", "FROM") || before("UPDATE", "SET")
}

func hasSQLPunct(s string) bool {
	return strings.ContainsAny(s, "*=?;") || strings.Contains(s, "$1") || containsFold(s, " where ") ||
		containsFold(s, " values") || containsFold(s, " join ") || containsFold(s, " set ")
}

// mayBeSQL is the cheap pre-check run on every string literal.
func mayBeSQL(s string) bool {
	return containsFold(s, "from") || containsFold(s, "into") || containsFold(s, "update") || containsFold(s, "table") ||
		containsFold(s, "join")
}

// containsFold reports whether s contains the ASCII lower-case word w, in any case.
func containsFold(s, w string) bool {
	n := len(w)
	for i := 0; i+n <= len(s); i++ {
		c := s[i] | 0x20
		if c != w[0] {
			continue
		}
		j := 1
		for j < n && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

type sqlToken struct {
	text   string
	word   bool // an identifier or keyword (possibly dotted: schema.table)
	quoted bool // a quoted identifier ("x", `x`, [x])
}

// sqlTokens splits SQL text into words, quoted identifiers and punctuation;
// string literals are dropped, holes and parameters become "?".
func sqlTokens(s string, max int) []sqlToken {
	var out []sqlToken
	for i := 0; i < len(s) && len(out) < max; {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-': // comment
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\'':
			i++
			for i < len(s) && s[i] != '\'' {
				i++
			}
			i++
			out = append(out, sqlToken{text: "'"})
		case c == '"' || c == '`' || c == '[':
			end := byte('"')
			switch c {
			case '`':
				end = '`'
			case '[':
				end = ']'
			}
			j := i + 1
			for j < len(s) && s[j] != end && s[j] != '\n' {
				j++
			}
			name := s[i+1 : min(j, len(s))]
			i = j + 1
			// schema."table" / "schema"."table"
			if n := len(out); n > 0 && out[n-1].text == "." && n > 1 && (out[n-2].word || out[n-2].quoted) {
				out[n-2].text += "." + name
				out[n-2].quoted = true
				out = out[:n-1]
				continue
			}
			if name == "" || strings.ContainsAny(name, " \t"+Hole) {
				out = append(out, sqlToken{text: "?"})
				continue
			}
			out = append(out, sqlToken{text: name, quoted: true})
		case lang.IsWordByte(c):
			j := i
			for j < len(s) && (lang.IsWordByte(s[j]) || s[j] == '.' && j+1 < len(s) && lang.IsWordByte(s[j+1])) {
				j++
			}
			w := s[i:j]
			i = j
			if w[0] >= '0' && w[0] <= '9' {
				out = append(out, sqlToken{text: "0"})
				continue
			}
			if i < len(s) && s[i] == '.' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '`' || s[i+1] == '[') {
				out = append(out, sqlToken{text: w, word: true}, sqlToken{text: "."})
				i++
				continue
			}
			out = append(out, sqlToken{text: w, word: true})
		case c == '(' || c == ')' || c == ',' || c == ';' || c == '*' || c == '=':
			out = append(out, sqlToken{text: s[i : i+1]})
			i++
		default:
			// parameters and holes: ?, $1, :name, @p, %s, {x}, \x00
			j := i + 1
			if c == '$' || c == ':' || c == '@' || c == '%' || c == '{' || c == '#' {
				for j < len(s) && (lang.IsWordByte(s[j]) || s[j] == '}') {
					j++
				}
			}
			out = append(out, sqlToken{text: "?"})
			i = j
		}
	}
	return out
}

// sqlKeyword are words that never name a table where one is expected.
var sqlKeyword = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true,
	"OUTER": true, "FULL": true, "CROSS": true, "NATURAL": true, "ON": true, "USING": true, "GROUP": true,
	"ORDER": true, "BY": true, "HAVING": true, "LIMIT": true, "OFFSET": true, "UNION": true, "EXCEPT": true,
	"INTERSECT": true, "VALUES": true, "SET": true, "AS": true, "AND": true, "OR": true, "NOT": true, "NULL": true,
	"INTO": true, "TABLE": true, "WITH": true, "RETURNING": true, "DEFAULT": true, "WHEN": true, "THEN": true,
	"ELSE": true, "END": true, "CASE": true, "IN": true, "IS": true, "EXISTS": true, "ALL": true, "ANY": true,
	"SOME": true, "DISTINCT": true, "FOR": true, "WINDOW": true, "FETCH": true, "LATERAL": true, "ONLY": true,
	"SELECT_": true, "UPDATE": true, "DELETE": true, "INSERT": true, "IF": true, "TEMP": true, "TEMPORARY": true,
}

// stopword are English words that make "select ... from <word>" prose.
var stopword = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true, "your": true,
	"my": true, "our": true, "their": true, "its": true, "his": true, "her": true, "which": true, "each": true,
	"every": true, "it": true, "them": true, "there": true, "here": true, "where": true, "one": true,
	"disk": true, "file": true, "memory": true, "cache": true, "now": true, "scratch": true,
}
