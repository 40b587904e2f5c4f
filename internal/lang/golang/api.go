package golang

import (
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// notAPI: Go's export rule marks names, but a package under internal/ is
// importable only from its parent's tree, package main from nowhere, and a
// method or field of an unexported type is out of reach however it is named.
func notAPI(p string, f *lang.Facts, def int32) string {
	if strings.Contains("/"+p, "/internal/") {
		return "internal-package"
	}
	if f.Package == "main" {
		return "main-package"
	}
	for at := def; at >= 0; at = f.Defs[at].Parent {
		if d := f.Defs[at]; d.Receiver != "" && Visibility(d.Receiver) != lang.VisPublic {
			return "private"
		}
	}
	return ""
}

// receiverName matches a method's receiver name, which callers never see.
var receiverName = regexp.MustCompile(`^func \(\s*[A-Za-z_][A-Za-z0-9_]*\s+`)

// apiSignature leaves a method's receiver name out of its signature.
func apiSignature(sig string) string {
	return receiverName.ReplaceAllString(sig, "func (")
}
