package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Status is the state of a worktree: where HEAD is, what is staged, changed
// and untracked, what is in conflict and which operation is under way.
type Status struct {
	Branch    string       `json:"branch,omitempty"` // "" when detached or before the first commit on an unborn branch is known
	Head      string       `json:"head,omitempty"`   // commit id; "" before the first commit
	Detached  bool         `json:"detached,omitempty"`
	Upstream  string       `json:"upstream,omitempty"`
	Ahead     int          `json:"ahead,omitempty"`
	Behind    int          `json:"behind,omitempty"`
	Clean     bool         `json:"clean"`
	State     string       `json:"state"` // none, merge, rebase, cherry-pick, revert, bisect, am
	Staged    []FileChange `json:"staged"`
	Unstaged  []FileChange `json:"unstaged"`
	Untracked []string     `json:"untracked"`
	Conflicts []Conflict   `json:"conflicts"`
	Stashes   int          `json:"stashes,omitempty"`
}

// FileChange is one changed path: status is added, modified, deleted,
// renamed, copied, type_changed or submodule.
type FileChange struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	OldPath string `json:"old_path,omitempty"`
}

// Conflict is a path with unmerged stages: kind names the sides
// (both_modified, both_added, deleted_by_us, deleted_by_them, added_by_us,
// added_by_them, both_deleted), and the blob ids of each stage present.
type Conflict struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Ancestor string `json:"ancestor_oid,omitempty"`
	Ours     string `json:"ours_oid,omitempty"`
	Theirs   string `json:"theirs_oid,omitempty"`
}

var changeLetters = map[byte]string{'A': "added", 'M': "modified", 'D': "deleted", 'R': "renamed", 'C': "copied", 'T': "type_changed"}

var conflictKinds = map[string]string{"UU": "both_modified", "AA": "both_added", "DU": "deleted_by_us", "UD": "deleted_by_them",
	"AU": "added_by_us", "UA": "added_by_them", "DD": "both_deleted"}

const zeroOID = "0000000000000000000000000000000000000000"

// GetStatus reads the worktree's status with porcelain v2, restricted to
// paths when given.
func GetStatus(ctx context.Context, dir string, paths ...string) (*Status, error) {
	args := []string{"-c", "core.quotepath=off", "status", "--porcelain=v2", "-z", "--branch", "--show-stash", "--untracked-files=all"}
	if len(paths) > 0 {
		args = append(append(args, "--"), paths...)
	}
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	st := parseStatus(out)
	st.State = OperationState(ctx, dir)
	st.Clean = len(st.Staged)+len(st.Unstaged)+len(st.Untracked)+len(st.Conflicts) == 0
	return st, nil
}

func parseStatus(out []byte) *Status {
	st := &Status{Staged: []FileChange{}, Unstaged: []FileChange{}, Untracked: []string{}, Conflicts: []Conflict{}}
	recs := strings.Split(string(out), "\x00")
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if r == "" {
			continue
		}
		switch r[0] {
		case '#':
			f := strings.Fields(r)
			if len(f) < 3 {
				continue
			}
			switch f[1] {
			case "branch.oid":
				if f[2] != "(initial)" {
					st.Head = f[2]
				}
			case "branch.head":
				if f[2] == "(detached)" {
					st.Detached = true
				} else {
					st.Branch = f[2]
				}
			case "branch.upstream":
				st.Upstream = f[2]
			case "branch.ab":
				if len(f) >= 4 {
					st.Ahead, _ = strconv.Atoi(strings.TrimPrefix(f[2], "+"))
					st.Behind, _ = strconv.Atoi(strings.TrimPrefix(f[3], "-"))
				}
			case "stash":
				st.Stashes, _ = strconv.Atoi(f[2])
			}
		case '1', '2':
			n := 8
			if r[0] == '2' {
				n = 9
			}
			f := strings.SplitN(r, " ", n+1)
			if len(f) < n+1 {
				continue
			}
			xy, sub, path := f[1], f[2], f[n]
			old := ""
			if r[0] == '2' && i+1 < len(recs) {
				i++
				old = recs[i]
			}
			if xy[0] != '.' {
				st.Staged = append(st.Staged, change(xy[0], sub, path, old))
			}
			if xy[1] != '.' {
				st.Unstaged = append(st.Unstaged, change(xy[1], sub, path, ""))
			}
		case 'u':
			f := strings.SplitN(r, " ", 11)
			if len(f) < 11 {
				continue
			}
			c := Conflict{Path: f[10], Kind: conflictKinds[f[1]]}
			if f[7] != zeroOID {
				c.Ancestor = f[7]
			}
			if f[8] != zeroOID {
				c.Ours = f[8]
			}
			if f[9] != zeroOID {
				c.Theirs = f[9]
			}
			st.Conflicts = append(st.Conflicts, c)
		case '?':
			st.Untracked = append(st.Untracked, r[2:])
		}
	}
	return st
}

func change(letter byte, sub, path, old string) FileChange {
	c := FileChange{Path: path, Status: changeLetters[letter], OldPath: old}
	if c.Status == "" {
		c.Status = "modified"
	}
	if sub != "N..." && c.Status == "modified" {
		c.Status = "submodule"
	}
	return c
}

// OperationState names the multi-step operation under way in the worktree:
// merge, rebase, am, cherry-pick, revert, bisect, or none.
func OperationState(ctx context.Context, dir string) string {
	gd, err := GitDir(ctx, dir)
	if err != nil {
		return "none"
	}
	for _, op := range operationFiles {
		if _, err := os.Stat(filepath.Join(gd, op.file)); err == nil {
			return op.state
		}
	}
	return "none"
}

// operationFiles are the files in the git directory that say an operation
// is under way, in the order they are tested (rebase-apply/applying tells an
// am from a rebase that uses rebase-apply).
var operationFiles = []struct{ file, state string }{
	{"rebase-merge", "rebase"},
	{"rebase-apply/applying", "am"},
	{"rebase-apply", "rebase"},
	{"MERGE_HEAD", "merge"},
	{"CHERRY_PICK_HEAD", "cherry-pick"},
	{"REVERT_HEAD", "revert"},
	{"BISECT_LOG", "bisect"},
}
