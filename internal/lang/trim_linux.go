//go:build linux && cgo

package lang

/*
#include <malloc.h>
*/
import "C"

// TrimCHeap hands the C heap's free memory back to the system. The
// parsers' trees live there (tree-sitter allocates with malloc); glibc
// keeps what they freed in its per-thread arenas otherwise, and the
// process's resident set grows by tens of megabytes beyond what the
// parsers hold at any moment.
func TrimCHeap() { C.malloc_trim(0) }
