package renamebench

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// RustStrata are the kinds of Rust symbols a sample draws from: methods of
// impl Trait for Type blocks, methods of inherent impls, and struct fields.
var RustStrata = []string{"method_trait_impl", "method", "field"}

var (
	// rustItemStart is an impl or a struct at the top level of a file.
	rustImpl   = regexp.MustCompile(`^(?:unsafe )?impl\b`)
	rustStruct = regexp.MustCompile(`^(?:pub(?:\([^)]*\))? )?struct \w+[^;(]*$`)
	// rustFn and rustField are a method and a field one level in.
	rustFn    = regexp.MustCompile(`^    (?:pub(?:\([^)]*\))? )?(?:const )?(?:unsafe )?(?:async )?fn (\w+)`)
	rustField = regexp.MustCompile(`^    (?:pub(?:\([^)]*\))? )?(\w+): `)
)

// RustSymbols lists the methods of impl blocks and the fields of structs
// declared at the top level of the Rust files under dir/src (generated
// tables left out), grouped by stratum: a line scan of rustfmt's layout.
func RustSymbols(dir string) (map[string][]Symbol, error) {
	keep := func(p string) bool { return strings.HasSuffix(p, ".rs") && !strings.Contains(p, "unicode_tables") }
	byKind, err := scanFiles(filepath.Join(dir, "src"), keep, func(rel string, lines []string) []Symbol {
		var out []Symbol
		var block, header string // "impl" or "struct", and the impl's header so far
		for i, line := range lines {
			switch {
			case block == "" && rustImpl.MatchString(line):
				block, header = "impl", line
				continue
			case block == "" && rustStruct.MatchString(line) && strings.HasSuffix(line, "{"):
				block = "struct"
				continue
			case line == "}":
				block, header = "", ""
				continue
			case block == "impl" && !strings.Contains(header, "{"):
				header += " " + line
			}
			kind, m := "", []int(nil)
			switch block {
			case "impl":
				if m = rustFn.FindStringSubmatchIndex(line); m != nil {
					kind = "method"
					if strings.Contains(header, " for ") {
						kind = "method_trait_impl"
					}
				}
			case "struct":
				if m = rustField.FindStringSubmatchIndex(line); m != nil {
					kind = "field"
				}
			}
			if kind != "" {
				out = append(out, Symbol{Path: "src/" + rel, Line: i + 1, Col: m[2] + 1, Name: line[m[2]:m[3]], Kind: kind})
			}
		}
		return out
	})
	return byKind, err
}

// rustError is an error line of cargo's short messages: file, line,
// column, message.
var rustError = regexp.MustCompile(`^(\S+\.rs):\d+:\d+: error(?:\[E\d+\])?: (.*)$`)

// CargoErrors checks the work copy's crate (cargo check, offline, its
// tests left out) and returns its errors without their lines (file and
// message), which a rename does not move.
func (w *Work) CargoErrors(ctx context.Context) (map[string]int, error) {
	cmd := exec.CommandContext(ctx, "cargo", "check", "--offline", "--quiet", "--message-format", "short")
	cmd.Dir, cmd.Env = w.Dir, w.Env
	b, _ := cmd.CombinedOutput()
	errs := map[string]int{}
	for _, l := range strings.Split(string(b), "\n") {
		if m := rustError.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			errs[m[1]+" "+m[2]]++
		}
	}
	if len(errs) == 0 && (strings.Contains(string(b), "error:") || strings.Contains(string(b), "error[")) {
		return nil, fmt.Errorf("cargo check: %s", firstLines(string(b), 5))
	}
	return errs, nil
}

// RunRust measures Rust renames of methods and fields on one crate, on the
// syntactic layer alone (no Rust indexer or language server here): cargo
// check judges each applied rename (an error the baseline check does not
// have breaks it).
func RunRust(ctx context.Context, c Config) (*Result, error) {
	return runJudged(ctx, c, judged{lang: "rust", judge: "cargo", strata: RustStrata, symbols: RustSymbols,
		errors: c.Work.CargoErrors, command: "cargo check --offline"})
}
