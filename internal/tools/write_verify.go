package tools

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/refactor"
)

// verifyWrite proves a write_source batch builds before it is written
// (verify: build): the batch is planned without writing, the planned
// contents are built over the tree, and a batch that breaks the build is
// refused. The edits are then pinned to the contents that were verified
// (expected_sha256), so the write cannot land anything else.
func (c *Call) verifyWrite(ctx context.Context, in *WriteIn) (string, error) {
	switch in.Verify {
	case "", refactor.VerifyNone:
		return "", nil
	case refactor.VerifyBuild:
	default:
		return "", mustBeOneOf("verify", in.Verify, "build", "none")
	}
	t0 := time.Now()
	planned, err := c.mutator().Preview(ctx, mutate.Request{Edits: in.Edits})
	if err != nil {
		return "", err
	}
	changes := make([]refactor.Change, 0, len(planned))
	dirs := map[string]bool{}
	for _, p := range planned {
		ch := refactor.Change{Path: p.Path, Content: p.Content}
		label := fmt.Sprintf("edits[%d]", p.Edit)
		for _, h := range p.Hunks {
			ch.Marks = append(ch.Marks, refactor.Mark{Label: label, Line: h.NewStart, EndLine: h.NewStart + max(h.NewLines, 1) - 1})
		}
		if len(p.Hunks) == 0 {
			ch.Marks = append(ch.Marks, refactor.Mark{Label: label, Line: 1, EndLine: 1 << 30})
		}
		changes = append(changes, ch)
		if strings.HasSuffix(p.Path, ".go") {
			dirs[path.Dir(p.Path)] = true
		}
		if e := &in.Edits[p.Edit]; e.ExpectedSHA256 == "" && p.OldSHA256 != "" {
			e.ExpectedSHA256 = p.OldSHA256
		}
	}
	var goDirs []string
	for d := range dirs {
		goDirs = append(goDirs, d)
	}
	req := refactor.VerifyRequest{Root: c.Env.Paths.Root, Changes: changes}
	if c.snap != nil {
		req.GoPackages = c.refactorEnv().GoImporters(ctx, goDirs)
	}
	rep := refactor.Verify(ctx, req)
	c.timing("verify", time.Since(t0))
	c.warnings = append(c.warnings, rep.Warnings...)
	if !rep.OK {
		return "", rep.Refusal()
	}
	ran := checksRan(rep)
	if len(ran) == 0 {
		return "not verified: no toolchain for these files", nil
	}
	return "verified: " + strings.Join(ran, ", "), nil
}

// checksRan names the programs a build verification ran (the checks it did
// not skip), for the answer.
func checksRan(rep *refactor.VerifyReport) []string {
	var ran []string
	for _, ch := range rep.Checks {
		if ch.Skipped == "" {
			ran = append(ran, strings.SplitN(ch.Command, " -", 2)[0])
		}
	}
	return ran
}
