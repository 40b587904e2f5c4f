package golang

import (
	buildconstraint "go/build/constraint"
	"path"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// builds are Go's build variants: a package-level name or a method is
// declared once per build constraint (//go:build lines, _linux.go file
// names), and the default build is linux/amd64 with cgo and no custom tags.
var builds = &lang.Builds{PathTags: fileTags, InDefault: inDefaultBuild, Repeatable: []string{"_", "init"}}

// inDefaultBuild reports whether a file is compiled by the default build:
// GOOS linux, GOARCH amd64, cgo on, no custom tags.
func inDefaultBuild(p, build string) bool {
	ok := func(tag string) bool {
		switch tag {
		case "linux", "amd64", "unix", "cgo", "gc", "test":
			return true
		}
		return strings.HasPrefix(tag, "go1.")
	}
	for _, t := range fileTags(p) {
		if !ok(t) {
			return false
		}
	}
	if build == "" {
		return true
	}
	x, err := buildconstraint.Parse("//go:build " + build)
	return err != nil || x.Eval(ok)
}

var (
	goosList   = strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")
	goarchList = strings.Fields("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")
)

// fileTags reads the build constraints a Go file name implies (go/build's
// rules: *_GOOS, *_GOARCH, *_GOOS_GOARCH, and _test).
func fileTags(p string) []string {
	name := strings.TrimSuffix(path.Base(p), ".go")
	var tags []string
	if s, ok := strings.CutSuffix(name, "_test"); ok {
		name = s
		tags = append(tags, "test")
	}
	parts := strings.Split(name, "_")
	var plat []string
	if n := len(parts); n >= 3 && slices.Contains(goosList, parts[n-2]) && slices.Contains(goarchList, parts[n-1]) {
		plat = []string{parts[n-2], parts[n-1]}
	} else if n >= 2 && (slices.Contains(goosList, parts[n-1]) || slices.Contains(goarchList, parts[n-1])) {
		plat = []string{parts[n-1]}
	}
	return append(plat, tags...)
}
