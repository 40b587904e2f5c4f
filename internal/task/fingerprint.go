package task

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
)

// FileChange is one file of a mutation's delta.
type FileChange struct {
	Path    string
	Action  string // created, updated, deleted, unchanged
	NewHash string // the file's sha256 after the mutation ("" when deleted)
}

// MutationFingerprint hashes what a mutation left in the tree: every file it
// touched with its action and its content afterwards. Two mutations that leave
// the same files in the same state have the same fingerprint, whatever the
// order of their edits; a write that changed nothing ("the files already hold
// this content") has the fingerprint of the write before it.
func MutationFingerprint(files []FileChange) string {
	if len(files) == 0 {
		return ""
	}
	lines := make([]string, 0, len(files))
	for _, f := range files {
		action := f.Action
		if action == "unchanged" || action == "created" {
			// Writing content a file already holds is the same outcome as
			// the update (or creation) that put it there.
			action = "updated"
		}
		lines = append(lines, f.Path+"\x00"+action+"\x00"+f.NewHash)
	}
	sort.Strings(lines)
	return "mfp_" + digest(strings.Join(lines, "\n"))
}

// Failure is one failing test of a run.
type Failure struct {
	Test    string `json:"test" jsonschema:"the test's id, e.g. pkg.TestName or tests/test_x.py::test_y"`
	Message string `json:"message,omitempty" jsonschema:"the failure message (assertion, exception type and text)"`
}

// volatile are the parts of a failure message that change from run to run
// without the failure changing: addresses, durations, timestamps, temp
// paths, goroutine and process numbers.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`0x[0-9a-fA-F]+`), "0x?"},
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?`), "<time>"},
	{regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s)\b`), "<dur>"},
	{regexp.MustCompile(`(/tmp|/var/folders)/[^\s:'"]+`), "<tmp>"},
	{regexp.MustCompile(`goroutine \d+`), "goroutine ?"},
	{regexp.MustCompile(`pid \d+`), "pid ?"},
}

// normalize takes the volatile parts out of a failure message.
func normalize(msg string) string {
	msg = strings.TrimSpace(msg)
	for _, v := range volatile {
		msg = v.re.ReplaceAllString(msg, v.with)
	}
	return strings.Join(strings.Fields(msg), " ")
}

// FailureFingerprint hashes a test run's failures: the failing tests' ids
// and their normalised messages, in any order. A run without failures has no
// fingerprint ("").
func FailureFingerprint(failures []Failure) string {
	if len(failures) == 0 {
		return ""
	}
	lines := make([]string, 0, len(failures))
	for _, f := range failures {
		lines = append(lines, strings.TrimSpace(f.Test)+"\x00"+normalize(f.Message))
	}
	sort.Strings(lines)
	return "ffp_" + digest(strings.Join(lines, "\n"))
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
