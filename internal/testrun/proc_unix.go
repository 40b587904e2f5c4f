//go:build unix

package testrun

import (
	"os/exec"
	"syscall"
)

// killGroup starts the command in a process group of its own, so that a
// timeout kills what it started too (go test's test binary, jest's workers).
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stopGroup kills the command's whole process group.
func stopGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
