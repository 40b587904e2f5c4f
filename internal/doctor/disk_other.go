//go:build !linux && !darwin

package doctor

// freeBytes is not measured on platforms Cairn does not support.
func freeBytes(dir string) (uint64, error) { return 0, errUnsupported }
