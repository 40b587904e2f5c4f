package golang

import "github.com/cairnhq/cairn/internal/lang/link"

// builtins are the functions and types of Go's universe block: a call of
// one (len(x), string(b)) calls the language, not the repository.
var builtins = link.Set(`append cap clear close complex copy delete imag len make max min new panic print println real recover
	any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
	uint uint8 uint16 uint32 uint64 uintptr`)
