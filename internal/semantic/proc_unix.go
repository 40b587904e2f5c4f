//go:build unix

package semantic

import (
	"os/exec"
	"syscall"
)

// ownGroup runs an indexer in a process group of its own and makes the
// command's cancellation (its timeout) kill the whole group: an indexer
// that hangs is stopped with everything it started (scip-go's go list and
// compilers, a language server), not only its own process.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
