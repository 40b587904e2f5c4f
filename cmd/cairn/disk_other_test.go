//go:build !(linux || darwin)

package main

// lowDisk is false where doctor does not measure free space.
func lowDisk() bool { return false }
