package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cairnhq/cairn/internal/tools"
)

// helpWidth is the column help text is wrapped at: a terminal's 80.
const helpWidth = 80

// shortMax is how long a Short may be before it is cut to its first clause:
// cobra lists every command's Short on one line.
const shortMax = 110

// shortLine is a command's Short: the tool's headline (the first sentence
// of its summary, as describe lists it), without the final period. A long
// headline is cut to its first clause (before a colon or semicolon outside
// parentheses), and if still long loses its parenthesised asides.
func shortLine(t *tools.Tool) string {
	s := strings.TrimSuffix(t.Headline(), ".")
	if len(s) > shortMax {
		s = firstClause(s)
	}
	if len(s) > shortMax {
		s = withoutAsides(s)
	}
	return s
}

// firstClause cuts s at its first colon or semicolon outside parentheses.
func firstClause(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ':', ';':
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// withoutAsides drops the parenthesised parts of s, with the space before them.
func withoutAsides(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(b.String(), " ,", ",")), " ")
}

// long is a command's Long: the tool's summary and documentation, what the
// command line adds (note), the other tools behind flags, the positional
// arguments, and when to use it or something else.
func (c *toolCmd) long() string {
	t := lookup(c.tool)
	var paras []string
	add := func(s string) {
		if s != "" {
			paras = append(paras, s)
		}
	}
	add(wrap(t.Summary, "", ""))
	add(wrap(cliNames(t.Doc, false), "", ""))
	for _, a := range c.also {
		at := lookup(a.tool)
		add(wrap("--"+a.flag+" runs "+a.tool+". "+at.Summary, "", ""))
		add(wrap(cliNames(at.Doc, false), "", ""))
	}
	add(strings.TrimSpace(c.note))
	if pos := c.positional(); len(pos) > 0 {
		docs := map[string]string{}
		for _, a := range t.Arguments() {
			docs[a.Name] = a.Description
		}
		width := 0
		for _, p := range pos {
			width = max(width, len(p.meta))
		}
		lines := []string{"Arguments:"}
		for _, p := range pos {
			arg, _, _ := strings.Cut(p.arg, "|")
			head := fmt.Sprintf("  %-*s  ", width, p.meta)
			line := wrap(docs[arg], head, strings.Repeat(" ", len(head)))
			if line == "" {
				line = "  " + p.meta
			}
			lines = append(lines, line)
		}
		add(strings.Join(lines, "\n"))
	}
	add(list("When to use", t.When))
	add(list("When not to use", t.WhenNot))
	add(wrap(c.footer(), "", ""))
	return strings.Join(paras, "\n\n")
}

// footer names the tools behind the command, as MCP and REST know them.
func (c *toolCmd) footer() string {
	runs, name := "the "+c.tool+" tool", c.tool
	for _, a := range c.also {
		runs += ", or " + a.tool + " with --" + a.flag
		name = "NAME"
	}
	return fmt.Sprintf("Runs %s: cairn describe --tool %s documents its arguments; --json prints the exact response envelope.", runs, name)
}

// list is a titled list of registry sentences, tool names turned into commands.
func list(title string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	lines := []string{title + ":"}
	for _, s := range items {
		lines = append(lines, wrap(cliNames(s, true), "  - ", "    "))
	}
	return strings.Join(lines, "\n")
}

// wrap fills s to helpWidth: the first line starts with first, the others
// with indent.
func wrap(s, first, indent string) string {
	var b strings.Builder
	line := first
	empty := true
	for _, w := range strings.Fields(s) {
		if !empty && len(line)+1+len(w) > helpWidth {
			b.WriteString(line + "\n")
			line, empty = indent, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	if empty {
		return ""
	}
	b.WriteString(line)
	return b.String()
}

// commands maps each tool with a command to the command line that runs it
// ("refs_find" -> "cairn refs", "read_file_full" -> "cairn read --full").
var commands = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, c := range allToolCommands() {
		m[c.tool] = "cairn " + strings.Join(c.path(), " ")
		for _, a := range c.also {
			m[a.tool] = "cairn " + strings.Join(c.path(), " ") + " --" + a.flag
		}
	}
	return m
})

// cliNames names commands where registry text names tools. Tool names that
// are ordinary words (search, status) are replaced only with all, in the
// when-to-use lists, where every mention is of a tool.
func cliNames(s string, all bool) string {
	var b strings.Builder
	for {
		i := strings.IndexFunc(s, isNameRune)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexFunc(s[i:], func(r rune) bool { return !isNameRune(r) })
		if j < 0 {
			j = len(s) - i
		}
		word := s[i : i+j]
		if cmd, ok := commands()[word]; ok && (all || strings.Contains(word, "_")) {
			word = cmd
		}
		b.WriteString(s[:i] + word)
		s = s[i+j:]
	}
}

func isNameRune(r rune) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// examples is a command's Example: the registry's example arguments of its
// tools as command lines, those the command line can spell.
func (c *toolCmd) examples(f *argFlags) string {
	var lines []string
	for _, tool := range c.tools() {
		for _, ex := range lookup(tool).Examples {
			if words, ok := c.example(f, tool, ex); ok {
				lines = append(lines, "  "+shellLine(words))
			}
		}
	}
	return strings.Join(lines, "\n")
}

// example turns one example of tool (its arguments as JSON) into the words
// of a command line, or false when some argument has no position or flag.
func (c *toolCmd) example(f *argFlags, tool, js string) ([]string, bool) {
	var ex map[string]any
	if err := json.Unmarshal([]byte(js), &ex); err != nil {
		return nil, false
	}
	words := append([]string{"cairn"}, c.path()...)
	if c.words != nil {
		words = append(words, c.words(ex)...)
	}
	for _, p := range c.positional() {
		for _, arg := range strings.Split(p.arg, "|") {
			if v, ok := ex[arg]; ok {
				delete(ex, arg)
				words = append(words, values(v)...)
				break
			}
		}
	}
	for _, a := range c.also {
		if a.tool == tool {
			words = append(words, "--"+a.flag)
		}
	}
	for _, b := range f.bound {
		v, ok := ex[b.arg]
		if !ok {
			continue
		}
		delete(ex, b.arg)
		flag := "--" + b.flag.Name
		switch {
		case v == true:
			words = append(words, flag)
		case b.flag.Value.Type() == "stringSlice":
			words = append(words, flag, strings.Join(values(v), ","))
		default:
			for _, s := range values(v) {
				words = append(words, flag, s)
			}
		}
	}
	return words, len(ex) == 0
}

// values spells an example's value as command-line words: a list gives one
// word per item, a position PATH:LINE:COL.
func values(v any) []string {
	switch v := v.(type) {
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, values(x)...)
		}
		return out
	case map[string]any:
		return []string{fmt.Sprintf("%s:%s:%s", values(v["path"])[0], values(v["line"])[0], values(v["col"])[0])}
	case float64:
		return []string{strconv.FormatFloat(v, 'f', -1, 64)}
	case string:
		return []string{v}
	}
	return []string{fmt.Sprint(v)}
}

// shellLine joins words into a line a POSIX shell reads back as the same
// words.
func shellLine(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellWord(w)
	}
	return strings.Join(out, " ")
}

func shellWord(w string) string {
	plain := w != "" && w[0] != '#' && w[0] != '~' && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:#=@%+,", r))
	}) < 0
	if plain {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
