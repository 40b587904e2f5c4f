package python

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestClassInterface(t *testing.T) {
	src := []byte(`import abc
import typing
from typing import Protocol

class Reader(Protocol):
    def read(self): ...

class Sized(typing.Protocol[T]):
    def size(self): ...

class Base(abc.ABC):
    def run(self): ...

class Plain(Base):
    def run(self): ...

class Mixed(Plain, Protocol):
    pass
`)
	f := langtest.Extract(t, Language, src)
	want := map[string][2]bool{ // iface, structural
		"Reader": {true, true},
		"Sized":  {true, true}, // a generic Protocol
		"Base":   {true, false},
		"Plain":  {false, false},
		"Mixed":  {true, true},
	}
	seen := 0
	for i, d := range f.Defs {
		w, ok := want[d.Name]
		if !ok || d.Kind != lang.KindClass {
			continue
		}
		seen++
		iface, structural := classInterface(f, int32(i))
		if iface != w[0] || structural != w[1] {
			t.Errorf("%s: iface %v structural %v, want %v %v", d.Name, iface, structural, w[0], w[1])
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d classes", seen, len(want))
	}
}
