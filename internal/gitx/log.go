package gitx

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Commit is one commit as git log prints it.
type Commit struct {
	OID       string   `json:"oid"`
	ShortOID  string   `json:"short_oid"`
	Parents   []string `json:"parents"`
	Author    Person   `json:"author"`
	Committer Person   `json:"committer"`
	Subject   string   `json:"subject"`
	Body      string   `json:"body,omitempty"`
	// Files lists the paths the commit touched, when asked for (name-status).
	Files []FileChange `json:"files,omitempty"`
}

// Person is an author or committer with the time in ISO 8601 (strict).
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Time  string `json:"time"`
}

// Field and record separators of the log format: control characters that
// commit messages do not hold in practice (a message holding them is cut
// there, never misread as another commit).
const (
	fieldSep  = "\x1f"
	recordSep = "\x1e"
)

const logFormat = recordSep + "%H" + fieldSep + "%h" + fieldSep + "%P" + fieldSep + "%an" + fieldSep + "%ae" + fieldSep + "%aI" +
	fieldSep + "%cn" + fieldSep + "%ce" + fieldSep + "%cI" + fieldSep + "%s" + fieldSep + "%b" + fieldSep

// LineRange is a 1-based inclusive line span of a file, for git log -L.
type LineRange struct {
	Path       string
	Start, End int
}

// LogOptions selects commits. Rev is where to start (default HEAD; may be a
// range a..b). Skip and Limit page through them. Lines restricts to the
// commits that changed a line span (git log -L), Follow follows one file
// through renames, Files lists the paths each commit touched.
type LogOptions struct {
	Rev          string
	Paths        []string
	Since, Until string
	Author       string
	Grep         string
	Skip, Limit  int
	Lines        *LineRange
	Follow       bool
	Files        bool
	FirstParent  bool
	NoMerges     bool
}

// Log lists commits newest first.
func Log(ctx context.Context, dir string, o LogOptions) ([]Commit, error) {
	args := []string{"-c", "core.quotepath=off", "log", "--format=" + logFormat, "--no-color", "--no-ext-diff"}
	if o.Limit > 0 {
		args = append(args, "-n", strconv.Itoa(o.Limit))
	}
	if o.Skip > 0 {
		args = append(args, "--skip="+strconv.Itoa(o.Skip))
	}
	for _, kv := range [][2]string{{"--since=", o.Since}, {"--until=", o.Until}, {"--author=", o.Author}, {"--grep=", o.Grep}} {
		if kv[1] != "" {
			args = append(args, kv[0]+kv[1])
		}
	}
	if o.FirstParent {
		args = append(args, "--first-parent")
	}
	if o.NoMerges {
		args = append(args, "--no-merges")
	}
	switch {
	case o.Lines != nil:
		if err := CheckPaths([]string{o.Lines.Path}); err != nil {
			return nil, err
		}
		// -L takes its path inside the argument; the span is checked above
		// and the path cannot start with "-".
		args = append(args, "-s", fmt.Sprintf("-L%d,%d:%s", o.Lines.Start, o.Lines.End, o.Lines.Path))
	case o.Files:
		args = append(args, "--name-status", "-z", "-M")
	}
	if o.Follow {
		args = append(args, "--follow")
	}
	rev, err := revOrHead(o.Rev)
	if err != nil {
		return nil, err
	}
	args = append(args, "--end-of-options", rev)
	if o.Lines == nil {
		args = append(append(args, "--"), o.Paths...)
	}
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(string(out), o.Files && o.Lines == nil), nil
}

// parseLog reads records of logFormat; with files, each record's tail is
// -z name-status output.
func parseLog(out string, files bool) []Commit {
	commits := []Commit{}
	for _, rec := range strings.Split(out, recordSep) {
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, fieldSep, 12)
		if len(f) < 11 {
			continue
		}
		c := Commit{OID: f[0], ShortOID: f[1], Parents: strings.Fields(f[2]),
			Author:    Person{Name: f[3], Email: f[4], Time: f[5]},
			Committer: Person{Name: f[6], Email: f[7], Time: f[8]},
			Subject:   f[9], Body: strings.TrimSpace(f[10])}
		if c.Parents == nil {
			c.Parents = []string{}
		}
		if files && len(f) == 12 {
			c.Files = parseNameStatus(f[11])
		}
		commits = append(commits, c)
	}
	return commits
}

// parseNameStatus reads -z --name-status output: "STATUS\0path\0" or
// "RNNN\0old\0new\0".
func parseNameStatus(s string) []FileChange {
	parts := strings.Split(strings.TrimLeft(s, "\n\x00"), "\x00")
	out := []FileChange{}
	for i := 0; i < len(parts); i++ {
		st := strings.TrimSpace(parts[i])
		if st == "" || i+1 >= len(parts) {
			continue
		}
		fc := FileChange{Status: changeLetters[st[0]]}
		if fc.Status == "" {
			fc.Status = "modified"
		}
		i++
		fc.Path = parts[i]
		if (st[0] == 'R' || st[0] == 'C') && i+1 < len(parts) {
			fc.OldPath = fc.Path
			i++
			fc.Path = parts[i]
		}
		out = append(out, fc)
	}
	return out
}

// ShowCommit reads one commit's metadata and the paths it touched.
func ShowCommit(ctx context.Context, dir, rev string) (*Commit, error) {
	if err := CheckRev("revision", rev); err != nil {
		return nil, err
	}
	cs, err := Log(ctx, dir, LogOptions{Rev: rev, Limit: 1, Files: true})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%q: %w", rev, ErrNoRef)
	}
	return &cs[0], nil
}
