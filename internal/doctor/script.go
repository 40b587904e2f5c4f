package doctor

import (
	"fmt"
	"strings"
)

// Script turns a report into a POSIX shell script: one commented block per
// check that warned or failed, with its fix command (or only comments when no
// command fits). The script changes into the repository first. Nothing in it
// has been run; a person reviews it and runs it, or parts of it.
func Script(r *Report, root string) string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env sh\n")
	b.WriteString("# Fixes suggested by cairn doctor. Nothing here has been run: review, then run\n")
	b.WriteString("# the whole script or the blocks you want.\n")
	fmt.Fprintf(&b, "# %d passed, %d warnings, %d failures.\n\n", r.Passed, r.Warned, r.Failed)
	fmt.Fprintf(&b, "cd %s || exit 1\n", shellQuote(root))
	n := 0
	for _, c := range r.Checks {
		if c.Status == Pass {
			continue
		}
		n++
		fmt.Fprintf(&b, "\n# [%s] %s: %s\n", c.Status, c.Name, oneLine(c.Message))
		if c.Hint != "" {
			fmt.Fprintf(&b, "# %s\n", oneLine(c.Hint))
		}
		if c.Fix != "" {
			b.WriteString(c.Fix + "\n")
		} else {
			b.WriteString("# (no command: see above)\n")
		}
	}
	if n == 0 {
		b.WriteString("\n# Nothing to fix: every check passed.\n")
	}
	return b.String()
}

// oneLine keeps a message inside one comment line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
