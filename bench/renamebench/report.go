package renamebench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	beginMark = "<!-- renamebench:begin -->"
	endMark   = "<!-- renamebench:end -->"
)

// Report reads the JSON results in dir and replaces the section between
// the renamebench marks of results (appending it the first time). work is
// the directory of the work copies: the differences of Go renames in files
// gopls does not load are marked there.
func Report(dir, results, work string) error {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	var rs []*Result
	for _, f := range files {
		if strings.HasSuffix(f, ".oracle.json") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var r Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if r.Lang == "go" && len(r.Outcomes) > 0 {
			built, err := GoBuildFiles(filepath.Join(work, r.Corpus), os.Environ())
			if err != nil {
				return err
			}
			for i := range r.Outcomes {
				for j := range r.Outcomes[i].Diffs {
					d := &r.Outcomes[i].Diffs[j]
					d.Unseen = !built[d.Path]
				}
			}
		}
		rs = append(rs, &r)
	}
	doc, err := os.ReadFile(results)
	if err != nil {
		return err
	}
	// The hand-written reading of the figures (run from the repository root).
	notes, _ := os.ReadFile(filepath.Join("bench", "renamebench", "notes.md"))
	section := beginMark + "\n" + Markdown(rs, string(notes)) + endMark
	out := string(doc)
	if strings.Contains(out, beginMark) {
		out = splice(out, section)
	} else {
		out = strings.TrimRight(out, "\n") + "\n\n" + section + "\n"
	}
	return os.WriteFile(results, []byte(out), 0o644)
}

// splice replaces the text between the marks.
func splice(doc, section string) string {
	i := strings.Index(doc, beginMark)
	j := strings.Index(doc, endMark)
	if i < 0 || j < i {
		return doc
	}
	return doc[:i] + section + doc[j+len(endMark):]
}

// row is one line of the rename table.
type row struct {
	symbols, applied, broken, differ, oracleBroken, unseen, comment, decision, blocked, refused, wrongSym, errors, oracleRefused int
	plan, apply                                                                                                                  []int64
}

func tally(r *Result, layer string) row {
	var t row
	for _, o := range r.Outcomes {
		if o.Layer != layer {
			continue
		}
		t.symbols++
		t.plan = append(t.plan, o.PlanMS)
		if o.Oracle != "" {
			t.oracleRefused++
		}
		switch o.Status {
		case "applied":
			t.applied++
			t.apply = append(t.apply, o.ApplyMS)
			if o.Build != nil && !o.Build.OK {
				t.broken++
			}
			if o.WrongDiff() {
				t.differ++
			} else if o.CodeDiff() {
				t.oracleBroken++
			} else if o.UnseenDiff() {
				t.unseen++
			} else if len(o.Diffs) > 0 {
				t.comment++
			}
		case "needs_decision":
			t.decision++
		case "blocked":
			t.blocked++
		case "refused":
			t.refused++
		case "wrong_symbol", "not_resolved":
			t.wrongSym++
		default:
			t.errors++
		}
	}
	return t
}

// reasons counts why renames of one layer were not applied: the refusal's
// reason code, or for needs_decision how many the language server refused
// too.
func reasons(r *Result, layer string) string {
	n := map[string]int{}
	for _, o := range r.Outcomes {
		if o.Layer != layer {
			continue
		}
		switch o.Status {
		case "refused", "error":
			code, _, _ := strings.Cut(o.Reason, ":")
			n[o.Status+" "+code]++
		case "blocked":
			n["blocked (files not fresh)"]++
		case "needs_decision":
			if o.Oracle != "" && r.Lang != "java" && r.Lang != "rust" {
				n["needs_decision (the language server refused it too)"]++
			} else {
				n["needs_decision"]++
			}
		}
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
	}
	return strings.Join(parts, ", ")
}

func median(v []int64) string {
	if len(v) == 0 {
		return "–"
	}
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("%d", s[len(s)/2])
}

// Markdown renders the section.
func Markdown(rs []*Result, notes string) string {
	var b strings.Builder
	b.WriteString("## Refactors on real code (`make renamebench`)\n\n")
	b.WriteString("Cairn's renames and moves applied to real corpora through its MCP server (`refactor_rename` at the\n" +
		"declaration's position, then `refactor_apply` with `verify: none`, so that the planner's own output is\n" +
		"what is built), each in a git work copy restored after it. Renames are compared with the language\n" +
		"server's rename of the same position (gopls v0.23.0, typescript-language-server 5.3.0 with\n" +
		"TypeScript 5.9.3; `textDocument/rename` over one session, the edits `gopls rename -d` prints) and\n" +
		"built: Go with `go build` and `go vet` of every package either side changed, TypeScript with\n" +
		"`tsc --noEmit -p .` (errors the project had before do not count). Symbols are drawn by a seeded\n" +
		"script (`SEED`, default 1) in equal numbers per kind of declaration; the new name appends `Rb`.\n" +
		"Two indexes: *semantic* (`cairn index`, then the corpus's SCIP index imported with\n" +
		"`cairn index --scip`) and *syntactic* (`cairn index` alone). Java (java.util of the OpenJDK 17\n" +
		"sources, methods drawn by kind: overriding, abstract, other) has neither a SCIP indexer nor a\n" +
		"language server here: its syntactic renames are judged by `javac --patch-module java.base=.` alone\n" +
		"(every rename counts under *oracle refused*). Rust (the regex-syntax crate of Debian's\n" +
		"librust-regex-syntax-dev, the `lang_rust` corpus; methods of trait impls, inherent methods and struct\n" +
		"fields) likewise, judged by `cargo check --offline`.\n\n")
	b.WriteString("| corpus | layer | symbols | applied | applied and broke the build | applied, code differs from the oracle | applied, differs from an oracle whose rename does not build | applied, differs only where the oracle does not look | applied, differs in comments only | needs_decision | blocked | refused | other symbol resolved | oracle refused | median plan ms | median apply ms |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rs {
		if len(r.Outcomes) == 0 {
			continue
		}
		for _, layer := range []string{"semantic", "syntactic"} {
			t := tally(r, layer)
			if t.symbols == 0 {
				continue // a language without a semantic layer here (Java, Rust)
			}
			fmt.Fprintf(&b, "| %s (%s) | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", r.Corpus, r.Lang, layer,
				t.symbols, t.applied, t.broken, t.differ, t.oracleBroken, t.unseen, t.comment, t.decision, t.blocked, t.refused, t.wrongSym, t.oracleRefused, median(t.plan), median(t.apply))
		}
	}
	b.WriteString("\nColumns: *applied* — the plan was ready and was written; *broke the build* — after it, `go build`/`go vet`,\n" +
		"`tsc`, `javac` or `cargo check` reported an error the corpus did not have; *code differs* — the files differ from the oracle's\n" +
		"rename outside comments (for a rename the oracle refused, only the build judges); *differs from an oracle\n" +
		"whose rename does not build* — the oracle's own rename, built in Cairn's place, breaks the build (gopls\n" +
		"misses methods a type gets through an embedded generic type), and Cairn's builds; *only where the oracle\n" +
		"does not look* — the differences are all in Go files outside the default build (another GOOS, a build tag),\n" +
		"which gopls does not load and Cairn renames too; *comments only* —\n" +
		"the only difference is in comments (gopls also renames the name in the declaration's doc comment;\n" +
		"Cairn lists such mentions and edits them only with `include_docs`); *needs_decision* — anchored\n" +
		"candidates the index cannot prove, returned as groups for a decision, nothing written; *blocked* —\n" +
		"files not fresh; *refused* — the planner said no (name taken, exportedness change across packages, a\n" +
		"method tied to an interface declared outside the repository); *other symbol resolved* — the position\n" +
		"resolved to another definition; *oracle refused* — the language server refused the rename (counted\n" +
		"in whatever Cairn did too); times are the MCP calls' wall times on a 2-core machine shared with other work.\n\n")
	for _, r := range rs {
		if len(r.Outcomes) == 0 {
			continue
		}
		kinds := map[string]bool{}
		for _, s := range r.Symbols {
			kinds[s.Kind] = true
		}
		var ks []string
		for k := range kinds {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		fmt.Fprintf(&b, "%s: %d symbols (%d per kind: %s).", r.Corpus, len(r.Symbols), r.PerKind, strings.Join(ks, ", "))
		var wrong []string
		for _, o := range r.Outcomes {
			if o.Status == "applied" && ((o.Build != nil && !o.Build.OK) || o.WrongDiff()) {
				what := "differs"
				if o.Build != nil && !o.Build.OK {
					what = "breaks the build"
				}
				wrong = append(wrong, fmt.Sprintf("%s %s (%s, %s)", o.Symbol.Kind, o.Symbol, o.Layer, what))
			}
		}
		if len(wrong) > 0 {
			b.WriteString(" Wrong applied renames: " + strings.Join(wrong, "; ") + ".")
		}
		for _, layer := range []string{"semantic", "syntactic"} {
			if why := reasons(r, layer); why != "" {
				fmt.Fprintf(&b, " Not applied (%s): %s.", layer, why)
			}
		}
		b.WriteString("\n\n")
	}
	var moves []*Result
	for _, r := range rs {
		if len(r.Moves) > 0 {
			moves = append(moves, r)
		}
	}
	if len(moves) > 0 {
		b.WriteString("Moves (`refactor_move`, syntactic index, `verify: none`, then built):\n\n")
		b.WriteString("| corpus | moves | applied | files moved | importer edits | builds after | broke the build | not applied | median plan ms | median apply ms |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, r := range moves {
			var applied, files, edits, ok, broken, other int
			var plan, apply []int64
			for _, m := range r.Moves {
				plan = append(plan, m.PlanMS)
				if m.Status != "applied" {
					other++
					continue
				}
				applied++
				files += m.Files
				edits += m.Edits
				apply = append(apply, m.ApplyMS)
				if m.Build != nil && m.Build.OK {
					ok++
				} else {
					broken++
				}
			}
			fmt.Fprintf(&b, "| %s (%s) | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", r.Corpus, r.Lang, len(r.Moves), applied, files, edits, ok, broken, other, median(plan), median(apply))
		}
		b.WriteString("\n*files moved* counts files, not moves (a Go move renames a package directory); *importer edits* are\n" +
			"the plans' content edits (import paths, specifiers, package clauses and qualifiers).\n\n")
	}
	for _, r := range rs {
		if len(r.Scale) == 0 {
			continue
		}
		b.WriteString("One large rename (client-go, MCP calls' wall times; verify timed apart on dry runs):\n\n")
		b.WriteString("| symbol | layer | edits | files | plan ms | apply ms (verify: none) | plan + apply ms | in process: plan + apply ms | builds after | verify ms (first) | verify ms (warm cache) |\n")
		b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n")
		for _, s := range r.Scale {
			v := []string{"–", "–"}
			if s.VerifyError != "" {
				v[0] = "did not finish: " + strings.ReplaceAll(s.VerifyError, "|", "/")
			}
			for i, ms := range s.VerifyMS {
				if i < 2 {
					v[i] = fmt.Sprint(ms)
				}
			}
			builds := "– (" + s.Status + ", not applied)"
			if s.Build != nil {
				builds = fmt.Sprint(s.Build.OK)
			}
			fmt.Fprintf(&b, "| `%s` → `%sRb` | %s | %d | %d | %d | %d | %d | %d | %s | %s | %s |\n", s.Symbol, s.Symbol[strings.LastIndexByte(s.Symbol, '.')+1:], s.Layer,
				s.Edits, s.Files, s.PlanMS, s.ApplyMS, s.PlanMS+s.ApplyMS, s.PlanRunMS+s.ApplyRunMS, builds, v[0], v[1])
		}
		b.WriteString("\n")
	}
	if strings.TrimSpace(notes) != "" {
		b.WriteString(strings.TrimSpace(notes) + "\n\n")
	}
	return b.String()
}
