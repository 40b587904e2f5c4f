package python

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// classInterface makes a class an interface when it derives from
// typing.Protocol or abc.ABC; a Protocol is satisfied structurally, by any
// class with its methods, an ABC only by its subclasses.
func classInterface(f *lang.Facts, def int32) (iface, structural bool) {
	for _, rel := range f.TypeRels {
		if rel.Def != def {
			continue
		}
		switch strings.TrimPrefix(strings.TrimPrefix(rel.Target, "typing."), "abc.") {
		case "Protocol", "ABC":
			iface = true
		}
		if strings.HasPrefix(rel.Target, "Protocol[") || strings.HasPrefix(rel.Target, "typing.Protocol[") {
			iface = true
		}
		if strings.Contains(rel.Target, "Protocol") {
			structural = true
		}
	}
	return iface, structural
}
