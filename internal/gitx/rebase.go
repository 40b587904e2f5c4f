package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// RebaseStep is one line of a rebase plan: action is pick, reword, edit,
// squash, fixup or drop; Message replaces the commit's message (reword,
// squash).
type RebaseStep struct {
	Action  string `json:"action"`
	Commit  string `json:"commit"`
	Subject string `json:"subject,omitempty"`
	Message string `json:"message,omitempty"`
}

// RebasePlan is the commits a rebase would replay, oldest first.
type RebasePlan struct {
	Upstream string       `json:"upstream"`
	Onto     string       `json:"onto"`
	Base     string       `json:"base"` // the merge base of HEAD and upstream
	Steps    []RebaseStep `json:"steps"`
}

// RebaseState is where a rebase stands: state is done, conflict,
// edit_pause, aborted or none; Step counts done lines of Total.
type RebaseState struct {
	State     string         `json:"state"`
	Step      int            `json:"step,omitempty"`
	Total     int            `json:"total,omitempty"`
	Current   string         `json:"current_commit,omitempty"`
	Onto      string         `json:"onto,omitempty"`
	HeadName  string         `json:"head_name,omitempty"`
	Head      string         `json:"head,omitempty"`
	Conflicts []ConflictFile `json:"conflicts"`
}

var rebaseActions = map[string]bool{"pick": true, "reword": true, "edit": true, "squash": true, "fixup": true, "drop": true}

// PlanRebase lists the commits of HEAD that are not in upstream, oldest
// first, as picks onto onto (default upstream).
func PlanRebase(ctx context.Context, dir, upstream, onto string) (*RebasePlan, error) {
	if onto == "" {
		onto = upstream
	}
	for _, r := range []string{upstream, onto} {
		if err := CheckRev("revision", r); err != nil {
			return nil, err
		}
	}
	ontoID, err := ResolveCommit(ctx, dir, onto)
	if err != nil {
		return nil, err
	}
	base, err := git(ctx, dir, "merge-base", "--end-of-options", "HEAD", upstream)
	if err != nil {
		return nil, err
	}
	out, err := git(ctx, dir, "log", "--reverse", "--no-merges", "--format=%H"+fieldSep+"%s", "--end-of-options", "HEAD", "^"+upstream, "--")
	if err != nil {
		return nil, err
	}
	p := &RebasePlan{Upstream: upstream, Onto: ontoID, Base: strings.TrimSpace(string(base)), Steps: []RebaseStep{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if oid, subj, ok := strings.Cut(line, fieldSep); ok {
			p.Steps = append(p.Steps, RebaseStep{Action: "pick", Commit: oid, Subject: subj})
		}
	}
	return p, nil
}

// ExecuteRebase replays steps onto onto (upstream when empty). The todo
// list is handed to git's interactive rebase by a sequence editor that
// copies a file Cairn wrote (git runs the editor command; its text is
// fixed and names only Cairn's temporary files). New messages are applied
// by an exec line that amends the commit from a message file.
func ExecuteRebase(ctx context.Context, dir, upstream, onto string, steps []RebaseStep) (*RebaseState, error) {
	if err := CheckRev("revision", upstream); err != nil {
		return nil, err
	}
	gd, err := GitDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	work := filepath.Join(gd, "cairn-rebase")
	os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o700); err != nil {
		return nil, err
	}
	var todo strings.Builder
	for i, s := range steps {
		if !rebaseActions[s.Action] {
			return nil, &InvalidName{"rebase action", s.Action, "not pick, reword, edit, squash, fixup or drop"}
		}
		if !isOID(s.Commit) {
			id, err := ResolveCommit(ctx, dir, s.Commit)
			if err != nil {
				return nil, err
			}
			s.Commit = id
		}
		action := s.Action
		if action == "reword" {
			action = "pick" // the message comes from the exec line below
		}
		fmt.Fprintf(&todo, "%s %s\n", action, s.Commit)
		if s.Message != "" && (s.Action == "reword" || s.Action == "squash" || s.Action == "pick") {
			msg := filepath.Join(work, "msg-"+strconv.Itoa(i))
			if err := os.WriteFile(msg, []byte(s.Message), 0o600); err != nil {
				return nil, err
			}
			fmt.Fprintf(&todo, "exec git commit -q --amend --no-verify --cleanup=strip -F %s\n", msg)
		}
	}
	todoFile := filepath.Join(work, "todo")
	if err := os.WriteFile(todoFile, []byte(todo.String()), 0o600); err != nil {
		return nil, err
	}
	if strings.ContainsAny(todoFile, " \t\n'\"\\$`;&|<>()*?[]#~=%") {
		return nil, fmt.Errorf("rebase: the git dir path %q cannot be handed to git's sequence editor", gd)
	}
	args := []string{"rebase", "-i", "--no-autosquash", "--no-verify"}
	if onto != "" {
		if err := CheckRev("revision", onto); err != nil {
			return nil, err
		}
		args = append(args, "--onto", onto)
	}
	args = append(args, "--end-of-options", upstream)
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args, Env: []string{"GIT_SEQUENCE_EDITOR=cp " + todoFile}})
	if err != nil {
		return nil, err
	}
	return rebaseOutcome(ctx, dir, args, r)
}

// RebaseContinue, RebaseSkip and RebaseAbort drive a rebase that stopped.
func RebaseContinue(ctx context.Context, dir string) (*RebaseState, error) {
	return rebaseCmd(ctx, dir, "--continue")
}

// RebaseSkip drops the commit that stopped the rebase and goes on.
func RebaseSkip(ctx context.Context, dir string) (*RebaseState, error) {
	return rebaseCmd(ctx, dir, "--skip")
}

// RebaseAbort abandons the rebase and restores the branch as it was.
func RebaseAbort(ctx context.Context, dir string) (*RebaseState, error) {
	st, err := rebaseCmd(ctx, dir, "--abort")
	if err == nil {
		st.State = "aborted"
	}
	return st, err
}

func rebaseCmd(ctx context.Context, dir, flag string) (*RebaseState, error) {
	if OperationState(ctx, dir) != "rebase" {
		return nil, fmt.Errorf("rebase %s: no rebase is in progress", flag)
	}
	args := []string{"rebase", flag}
	r, err := Exec(ctx, Cmd{Dir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	return rebaseOutcome(ctx, dir, args, r)
}

// rebaseOutcome reads the state a rebase command left.
func rebaseOutcome(ctx context.Context, dir string, args []string, r *Result) (*RebaseState, error) {
	st := CurrentRebase(ctx, dir)
	if st.State == "none" {
		if r.Exit != 0 {
			return nil, &CmdError{Args: args, Exit: r.Exit, Stderr: r.Stderr, Stdout: string(r.Stdout)}
		}
		st.State = "done"
		if gd, err := GitDir(ctx, dir); err == nil {
			os.RemoveAll(filepath.Join(gd, "cairn-rebase"))
		}
	}
	st.Head, _ = Head(ctx, dir)
	return st, nil
}

// CurrentRebase reads the state of a rebase in progress from the git dir
// (state none when there is none).
func CurrentRebase(ctx context.Context, dir string) *RebaseState {
	st := &RebaseState{State: "none", Conflicts: []ConflictFile{}}
	gd, err := GitDir(ctx, dir)
	if err != nil {
		return st
	}
	rd := filepath.Join(gd, "rebase-merge")
	if _, err := os.Stat(rd); err != nil {
		return st
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(rd, name))
		return strings.TrimSpace(string(b))
	}
	st.Step, _ = strconv.Atoi(read("msgnum"))
	st.Total, _ = strconv.Atoi(read("end"))
	st.Onto = read("onto")
	st.HeadName = strings.TrimPrefix(read("head-name"), "refs/heads/")
	st.Current = read("stopped-sha")
	if cs, err := Conflicts(ctx, dir); err == nil && len(cs) > 0 {
		st.State, st.Conflicts = "conflict", cs
	} else {
		st.State = "edit_pause"
	}
	if st.Current == "" {
		// the commit being applied is the last line of done
		lines := strings.Split(read("done"), "\n")
		if f := strings.Fields(lines[len(lines)-1]); len(f) >= 2 {
			st.Current = f[1]
		}
	}
	if st.Current != "" && !isOID(st.Current) {
		if id, err := ResolveCommit(ctx, dir, st.Current); err == nil {
			st.Current = id
		}
	}
	return st
}
