//go:build !unix

package testrun

import "os/exec"

// killGroup: without process groups only the command itself is killed.
func killGroup(cmd *exec.Cmd) {}

// stopGroup kills the command.
func stopGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
