//go:build !linux || !cgo

package lang

// TrimCHeap hands the C heap's free memory back to the system where the C
// library can (trim_linux.go); elsewhere it does nothing.
func TrimCHeap() {}
