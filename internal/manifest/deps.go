package manifest

import "strings"

// DependencyOf finds which of a manifest's declared dependencies an import
// source comes from, by the naming rules of the ecosystem: Go import paths
// under a module path (the longest wins), an npm package's @scope/name, a
// Python distribution by its normalised name, a Rust crate with - read as _,
// and a JVM package under a dependency's group id. Elsewhere the source must
// name the dependency exactly. It returns "" when none matches.
func DependencyOf(eco Ecosystem, source string, deps []string) string {
	match := func(key string, norm func(string) string) string {
		for _, d := range deps {
			if norm(d) == key {
				return d
			}
		}
		return ""
	}
	switch eco {
	case EcoGo:
		best := ""
		for _, d := range deps {
			if (source == d || strings.HasPrefix(source, d+"/")) && len(d) > len(best) {
				best = d
			}
		}
		return best
	case EcoJavaScript:
		return match(NPMPackage(source), asIs)
	case EcoPython:
		top, _, _ := strings.Cut(source, ".")
		return match(pythonName(top), pythonName)
	case EcoRust:
		crate, _, _ := strings.Cut(strings.TrimPrefix(source, "::"), "::")
		return match(rustCrate(crate), rustCrate)
	case EcoJVM:
		// group:artifact ids rarely match package names; a package that
		// starts with a dependency's group id is the best syntax can do.
		for _, d := range deps {
			group, _, _ := strings.Cut(d, ":")
			if group != "" && (source == group || strings.HasPrefix(source, group+".")) {
				return d
			}
		}
		return ""
	}
	return match(source, asIs)
}

// pythonName folds a distribution or module name the way pip compares them:
// any case, with - . and _ alike.
func pythonName(s string) string {
	return strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(s))
}

// rustCrate is a crate name as code spells it: - becomes _.
func rustCrate(s string) string { return strings.ReplaceAll(s, "-", "_") }
