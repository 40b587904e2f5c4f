//go:build !unix

package semantic

import "os/exec"

// ownGroup: without process groups a timeout kills the indexer only.
func ownGroup(cmd *exec.Cmd) {}
