//go:build !race

package testenv

// Race is true when the tests run under the race detector, whose shadow
// memory (several times what the program uses) no memory bound can include.
const Race = false
