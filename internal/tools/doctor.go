package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/doctor"
)

// DoctorIn are the arguments of doctor.
type DoctorIn struct {
	Fix           bool `json:"fix,omitempty" jsonschema:"also return fix_script: a shell script with the fix of every check that did not pass (it is never run)"`
	SkipIntegrity bool `json:"skip_integrity,omitempty" jsonschema:"skip SQLite's integrity check, which reads the whole index"`
	Base
}

// DoctorOut is doctor's payload: the checks, and the fix script when asked.
type DoctorOut struct {
	*doctor.Report
	FixScript string `json:"fix_script,omitempty"`
}

func init() {
	Register(Tool{
		Name: "doctor", Group: "core", NoIndex: true, // it must run when the index cannot even be opened
		Summary: "Check the setup: git, the index and its integrity, index vs HEAD, configuration, grammars, disk space, state directory, semantic indexers. Each check is pass, warn or fail with a fix command; nothing is ever run. Use when something does not work.",
		Doc: "Checks run in a fixed order. A check that fails is data, not an error: the call succeeds and data.healthy is false when any check failed (warnings keep it true). " +
			"fix: true adds fix_script, a POSIX shell script with one commented block per check that did not pass; it changes into the repository and runs the fix commands when a person runs it. " +
			"The integrity check reads the whole index; skip_integrity skips it on very large indexes.",
		When:     []string{"a tool fails with INDEX_UNAVAILABLE or answers look wrong", "after installing Cairn, to see what is missing (semantic indexers, git)"},
		WhenNot:  []string{"the index's state and freshness only: status"},
		Examples: []string{`{}`, `{"fix": true}`},
	}, doctorRun)
}

func doctorRun(ctx context.Context, c *Call, in DoctorIn) (*DoctorOut, error) {
	paths := c.Env.Paths
	if c.Env.Index != nil {
		paths = c.Env.Index.Paths()
	}
	r := doctor.Run(ctx, doctor.Options{Paths: paths, Index: c.Env.Index, IndexErr: c.Env.IndexErr, Engine: c.Engine(),
		SkipIntegrity: in.SkipIntegrity})
	out := &DoctorOut{Report: r}
	if in.Fix {
		out.FixScript = doctor.Script(r, paths.Root)
	}
	switch {
	case r.Failed > 0:
		c.Answer("%d of %d checks failed, %d warnings", r.Failed, len(r.Checks), r.Warned)
	case r.Warned > 0:
		c.Answer("healthy with %d warnings (%d checks)", r.Warned, len(r.Checks))
	default:
		c.Answer("healthy: all %d checks passed", len(r.Checks))
	}
	if (r.Failed > 0 || r.Warned > 0) && !in.Fix {
		c.Next("doctor", map[string]any{"fix": true}, "a shell script with every fix, to review and run")
	}
	for _, ch := range r.Checks {
		if ch.Name == "index" && ch.Status == doctor.Warn && c.Env.Index != nil {
			c.Next("index_ensure", map[string]any{}, "build the index")
		}
	}
	return out, nil
}
