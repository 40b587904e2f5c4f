package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// CmdError is a git invocation that ran and failed: its arguments, exit
// status and what it said on stderr (and stdout, where git reports
// conflicts).
type CmdError struct {
	Args   []string
	Exit   int
	Stderr string
	Stdout string
}

func (e *CmdError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = strings.TrimSpace(e.Stdout)
	}
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.Exit)
	}
	return fmt.Sprintf("git %s: %s", e.Subcommand(), msg)
}

// Subcommand is the git command that failed (status, merge, ...).
func (e *CmdError) Subcommand() string { return firstWord(e.Args) }

// Message is what git said, without the command.
func (e *CmdError) Message() string {
	if m := strings.TrimSpace(e.Stderr); m != "" {
		return m
	}
	return strings.TrimSpace(e.Stdout)
}

// firstWord is the git subcommand of args (after any -c options).
func firstWord(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" {
			i++
			continue
		}
		return args[i]
	}
	return ""
}

// Cmd is one git invocation. It never goes through a shell: Args are
// git's argv, and callers put "--end-of-options" or "--" before anything a
// user supplied.
type Cmd struct {
	Dir   string
	Args  []string
	Env   []string  // extra environment (KEY=VALUE)
	Stdin io.Reader // nil: no input
}

// Result is what a finished git invocation printed and how it exited.
type Result struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Exec runs a git invocation with Cairn's environment: no optional locks,
// the C locale (machine-readable messages), no terminal prompts and no
// editor (every message comes from the caller). A non-zero exit is not an
// error here: the caller reads Result.Exit (merge conflicts exit 1).
func Exec(ctx context.Context, c Cmd) (*Result, error) {
	cmd := exec.CommandContext(ctx, "git", c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0",
		"GIT_EDITOR=true", "GIT_MERGE_AUTOEDIT=no", "GIT_PAGER=cat")
	cmd.Env = append(cmd.Env, c.Env...)
	cmd.Stdin = c.Stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := &Result{Stdout: stdout.Bytes(), Stderr: stderr.String()}
	if err != nil {
		var ee *exec.ExitError
		switch {
		case errors.Is(err, exec.ErrNotFound):
			return nil, ErrNoGit
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &ee) && ee.ExitCode() == -1:
			return nil, died(c.Args, ee)
		case errors.As(err, &ee):
			res.Exit = ee.ExitCode()
		default:
			return nil, err
		}
	}
	return res, nil
}

// Must runs a git invocation and turns a non-zero exit into a *CmdError.
func Must(ctx context.Context, c Cmd) ([]byte, error) {
	r, err := Exec(ctx, c)
	if err != nil {
		return nil, err
	}
	if r.Exit != 0 {
		return nil, &CmdError{Args: c.Args, Exit: r.Exit, Stderr: r.Stderr, Stdout: string(r.Stdout)}
	}
	return r.Stdout, nil
}

// git runs git in dir with args and returns its stdout; a failure is a
// *CmdError.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return Must(ctx, Cmd{Dir: dir, Args: args})
}
