package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/tools"
)

// squash joins a text's words with single spaces, so wrapped help compares
// with the registry's one-line text.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestHelpFromRegistry checks that every command that runs a tool shows that
// tool's summary and documentation in --help, and a Short of one line taken
// from its headline: the CLI cannot drift from the registry again.
func TestHelpFromRegistry(t *testing.T) {
	root := newRoot(&globals{})
	seen := 0
	var cmds []*cobra.Command
	for _, cmd := range root.Commands() {
		cmds = append(cmds, cmd)
		cmds = append(cmds, cmd.Commands()...) // a family's members
	}
	for _, cmd := range cmds {
		names := cmd.Annotations[toolsAnnotation]
		if names == "" {
			continue
		}
		seen++
		words := strings.Fields(strings.TrimPrefix(cmd.CommandPath(), root.Name()+" "))
		t.Run(strings.Join(words, "_"), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Run(context.Background(), append(words, "--help"), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			help := squash(out.String())
			for _, name := range strings.Split(names, ",") {
				tool := tools.Lookup(name)
				if tool == nil {
					t.Fatalf("no tool %s", name)
				}
				if !strings.Contains(help, squash(tool.Summary)) {
					t.Errorf("--help lacks the summary of %s:\n%s\n--- help:\n%s", name, tool.Summary, out.String())
				}
				if !strings.Contains(help, squash(cliNames(tool.Doc, false))) {
					t.Errorf("--help lacks the documentation of %s", name)
				}
			}
			short := cmd.Short
			if short == "" || strings.Contains(short, "\n") || strings.HasSuffix(short, ".") || strings.Contains(short, ". ") {
				t.Errorf("Short is not one sentence on one line: %q", short)
			}
			if head := strings.Fields(lookup(strings.Split(names, ",")[0]).Headline())[0]; !strings.HasPrefix(short, head) {
				t.Errorf("Short %q does not start like the headline (%q)", short, head)
			}
		})
	}
	if seen != len(allToolCommands()) {
		t.Errorf("%d commands name their tools, want %d", seen, len(allToolCommands()))
	}
}

// TestExamplesRoundTrip parses every example --help shows and checks that the
// command line gives the tool the example's arguments.
func TestExamplesRoundTrip(t *testing.T) {
	for i, c := range allToolCommands() {
		_, f := c.command(&globals{})
		shown := 0
		for _, tool := range c.tools() {
			for _, ex := range lookup(tool).Examples {
				words, ok := c.example(f, tool, ex)
				if !ok {
					t.Logf("%s: example %s has no command line", c.name(), ex)
					continue
				}
				shown++
				t.Run(shellLine(words), func(t *testing.T) {
					c := allToolCommands()[i] // fresh arguments for every command line
					cmd, f := c.command(&globals{})
					if err := cmd.ParseFlags(words[1+len(c.path()):]); err != nil {
						t.Fatal(err)
					}
					args := cmd.Flags().Args()
					if err := cmd.ValidateArgs(args); err != nil {
						t.Fatal(err)
					}
					gotTool, in, err := c.parse(cmd, args)
					if err != nil {
						t.Fatal(err)
					}
					if gotTool != tool {
						t.Errorf("runs %s, want %s", gotTool, tool)
					}
					var want, got map[string]any
					json.Unmarshal([]byte(ex), &want)
					b, _ := json.Marshal(in)
					json.Unmarshal(b, &got)
					// Arguments the example leaves out may hold the defaults of
					// flags the command line did not give.
					for k := range got {
						if _, ok := want[k]; !ok {
							if fl := f.lookup(k); fl == nil || !fl.Changed {
								delete(got, k)
							}
						}
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("arguments (-example +command line):\n%s", diff)
					}
				})
			}
		}
		if shown == 0 && len(lookup(c.tool).Examples) > 0 {
			t.Errorf("%s shows none of the examples of %s", c.name(), c.tool)
		}
	}
}

func TestShortLine(t *testing.T) {
	for _, tc := range []struct{ summary, want string }{
		{"Find code. Ranked.", "Find code"},
		{"What depends on a symbol: " + strings.Repeat("direct dependents, ", 8) + "and tests. More.", "What depends on a symbol"},
		{"Call tree from an entry point (a handler, main, a command), depth-limited, cycles marked, each node with its surfaces (routes, config keys, DB tables, ...).",
			"Call tree from an entry point, depth-limited, cycles marked, each node with its surfaces"},
		{"Make sure the index is current (every other tool already does this incrementally); full: true rebuilds; " + strings.Repeat("x ", 40) + ".",
			"Make sure the index is current (every other tool already does this incrementally)"},
	} {
		if got := shortLine(&tools.Tool{Summary: tc.summary}); got != tc.want {
			t.Errorf("shortLine(%q) = %q, want %q", tc.summary, got, tc.want)
		}
	}
}

func TestCLINames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		all  bool
		want string
	}{
		{"refs_find with anchored lists them", false, "cairn refs with anchored lists them"},
		{"the status of read_file_full", false, "the status of cairn read --full"},
		{"health of the index: status", true, "health of the index: cairn status"},
		{"running tests: test_run", true, "running tests: cairn test run"},
		{"tasks: task_open_later", true, "tasks: task_open_later"},
	} {
		if got := cliNames(tc.in, tc.all); got != tc.want {
			t.Errorf("cliNames(%q, %v) = %q, want %q", tc.in, tc.all, got, tc.want)
		}
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"rest.Config":       "rest.Config",
		"mux.go#Mux.handle": "mux.go#Mux.handle",
		"pkg/**":            "'pkg/**'",
		`func \w+Handler`:   `'func \w+Handler'`,
		"it's":              `'it'\''s'`,
		"":                  "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap(strings.Repeat("word ", 20), "  - ", "    ")
	want := "  - word word word word word word word word word word word word word word word\n    word word word word word"
	if got != want {
		t.Errorf("wrap:\n%s\nwant:\n%s", got, want)
	}
}
