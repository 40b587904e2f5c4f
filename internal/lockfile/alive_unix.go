//go:build unix

package lockfile

import (
	"errors"
	"os"
	"syscall"
)

// signalZero reports whether the process exists (signal 0 checks without
// sending anything; EPERM means it exists under another user).
func signalZero(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
