package classlang

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Java and Kotlin use each other's accessors under other names. Kotlin
// reads a Java getter getFoo() as the property foo (isFoo() as isFoo) and
// assigns through a setter: b.foo = v runs setFoo(v). Java calls a Kotlin
// property foo's accessors getFoo() and setFoo(v), and isFoo() and
// setFoo(v) for a property named isFoo. A reference spelled the other
// language's way links to the accessor or property it runs, once the
// receiver's type and its bases turn out to declare no member spelled so.

// kotlinProperty is the property under which Kotlin uses a Java method,
// and whether the method is its setter: getURLEncoder and setURLEncoder
// are urlEncoder; "" for a method that is no accessor by its name. isFoo
// is the property isFoo, which already spells the method.
func kotlinProperty(method string) (prop string, setter bool) {
	for _, pre := range []string{"get", "set"} {
		if rest, ok := strings.CutPrefix(method, pre); ok && rest != "" && isUpper(rest[0]) {
			return decapitalizeSmart(rest), pre == "set"
		}
	}
	return "", false
}

// javaAccessors are the names of a Kotlin property's getter and setter as
// Java calls them.
func javaAccessors(prop string) (getter, setter string) {
	if rest, ok := strings.CutPrefix(prop, "is"); ok && rest != "" && isUpper(rest[0]) {
		return prop, "set" + rest
	}
	if prop == "" {
		return "", ""
	}
	up := strings.ToUpper(prop[:1]) + prop[1:]
	return "get" + up, "set" + up
}

// decapitalizeSmart lowers the first word of a name the way Kotlin names a
// Java getter's property: Foo is foo, URL is url, URLEncoder is urlEncoder.
func decapitalizeSmart(s string) string {
	if s == "" || !isUpper(s[0]) {
		return s
	}
	if len(s) == 1 || !isUpper(s[1]) {
		return strings.ToLower(s[:1]) + s[1:]
	}
	i := 0
	for i < len(s) && isUpper(s[i]) {
		i++
	}
	if i == len(s) {
		return strings.ToLower(s)
	}
	return strings.ToLower(s[:i-1]) + s[i-1:]
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// AccessorNames are the other names under which Java or Kotlin code uses
// a symbol of the language named language: a Java getter or setter's
// property name for Kotlin, a Kotlin property's accessors for Java.
func AccessorNames(language string) func(name string, kind lang.DefKind) []string {
	switch language {
	case "java":
		return func(name string, kind lang.DefKind) []string {
			p, setter := kotlinProperty(name)
			if kind != lang.KindMethod || p == "" {
				return nil
			}
			if setter { // setFoo also writes the property isFoo of a getter isFoo()
				return []string{p, "is" + name[3:]}
			}
			return []string{p}
		}
	case "kotlin":
		return func(name string, kind lang.DefKind) []string {
			if kind != lang.KindProperty {
				return nil
			}
			g, s := javaAccessors(name)
			if g == name {
				return []string{s}
			}
			return []string{g, s}
		}
	}
	return nil
}

// RenameAccessor spells a use of a Java getter (Kotlin's property) or of
// a Kotlin property (Java's accessor calls) after a rename of the symbol.
// A Java setter's use gets no spelling: Kotlin's b.foo = v needs the
// getter of the property too, which the rename leaves alone.
func RenameAccessor(language string) func(old, new, spelled string, kind lang.DefKind, call bool) (string, bool) {
	switch language {
	case "java":
		return func(old, new, spelled string, kind lang.DefKind, call bool) (string, bool) {
			if kind != lang.KindMethod || call {
				return "", false // Kotlin calls a Java method by its name
			}
			if p, setter := kotlinProperty(old); setter && (spelled == p || spelled == "is"+old[3:]) {
				return "", true
			}
			if getterProperty(old) != spelled {
				return "", false
			}
			return getterProperty(new), true
		}
	case "kotlin":
		return func(old, new, spelled string, kind lang.DefKind, call bool) (string, bool) {
			g, s := javaAccessors(old)
			ng, ns := javaAccessors(new)
			switch {
			case kind != lang.KindProperty:
			case spelled == g:
				return ng, true
			case spelled == s:
				return ns, true
			}
			return "", false
		}
	}
	return nil
}

// getterProperty is the property under which Kotlin reads a Java getter
// (getFoo is foo, isFoo is isFoo); "" for a method no getter by its name.
func getterProperty(method string) string {
	if rest, ok := strings.CutPrefix(method, "is"); ok && rest != "" && isUpper(rest[0]) {
		return method
	}
	if p, setter := kotlinProperty(method); !setter {
		return p
	}
	return ""
}

// accessor links what a reference of role role spelled name, passing args
// arguments (Ref.Args), runs through the other language's accessors on a
// member of type t or its bases: the Java getter or setter of a Kotlin
// property reference, the Kotlin property of a Java accessor call.
func (fs *fileScope) accessor(ctx context.Context, t pkgBase, name string, role lang.Role, args uint16) (pkgSym, bool) {
	switch fs.f.Lang {
	case "kotlin":
		if role == lang.RoleCall || role == lang.RoleType {
			return pkgSym{}, false
		}
		pre, params := "get", 0
		if role == lang.RoleWrite {
			pre, params = "set", 1
		}
		for _, m := range javaSpellings(pre, name) {
			if s, ok := fs.p.memberOf(ctx, fs.family, t.t, t.s, m, fs.from); ok && fs.javaMember(s, lang.KindMethod) {
				if p, _ := kotlinProperty(m); p == name || pre == "set" && name == "is"+m[3:] {
					return fs.overloadTaking(ctx, s, params)
				}
			}
		}
	case "java":
		if role != lang.RoleCall {
			return pkgSym{}, false
		}
		for _, p := range kotlinSpellings(name) {
			s, ok := fs.p.memberOf(ctx, fs.family, t.t, t.s, p, fs.from)
			if !ok || s.kind != lang.KindProperty || !strings.HasSuffix(s.file, ".kt") {
				continue
			}
			g, set := javaAccessors(p)
			if name == g && args <= 1 || name == set && (args == 0 || args == 2) {
				return s, true
			}
		}
	}
	return pkgSym{}, false
}

// javaSpellings are the Java methods named pre + a word that Kotlin may
// read as the property prop: getUrl and getURL for url; for a setter of a
// property isFoo, setFoo.
func javaSpellings(pre, prop string) []string {
	if prop == "" || isUpper(prop[0]) {
		return nil
	}
	var out []string
	if rest, ok := strings.CutPrefix(prop, "is"); ok && pre == "set" && rest != "" && isUpper(rest[0]) {
		out = append(out, "set"+rest)
	}
	for k := 1; k <= len(prop) && k <= 8 && !isUpper(prop[k-1]); k++ {
		out = append(out, pre+strings.ToUpper(prop[:k])+prop[k:])
	}
	return out
}

// kotlinSpellings are the Kotlin properties whose accessor Java may call
// as method: foo and Foo for getFoo or setFoo, isFoo for isFoo and setFoo.
func kotlinSpellings(method string) []string {
	if strings.HasPrefix(method, "is") {
		return []string{method}
	}
	for _, pre := range []string{"get", "set"} {
		if rest, ok := strings.CutPrefix(method, pre); ok && rest != "" && isUpper(rest[0]) {
			out := []string{strings.ToLower(rest[:1]) + rest[1:], rest}
			if pre == "set" {
				out = append(out, "is"+rest)
			}
			return out
		}
	}
	return nil
}

// overloadTaking is the overload of s (s itself when it has none) that
// takes n arguments, when one does.
func (fs *fileScope) overloadTaking(ctx context.Context, s pkgSym, n int) (pkgSym, bool) {
	group := fs.overloadsOf(s.id)
	if len(group) == 0 {
		group = []pkgSym{s}
	}
	for _, o := range group {
		if fs.arityOf(ctx, o).Takes(n) {
			if o.kind == 0 {
				o.kind, o.module = s.kind, s.module
			}
			return o, true
		}
	}
	return pkgSym{}, false
}

// memberNamed finds what reference r, spelled name, names among the
// members of type t and its bases: the member of the name, else the
// accessor or property of the other language that it runs.
func (fs *fileScope) memberNamed(ctx context.Context, t pkgBase, r lang.Ref, name string) (pkgSym, bool) {
	m, ok := fs.p.memberOf(ctx, fs.family, t.t, t.s, name, fs.from)
	if ok && !fs.hiddenField(ctx, m) && !(fs.f.Lang == "kotlin" && r.Role == lang.RoleWrite && m.kind == lang.KindMethod) {
		return m, true // b.isFoo = v assigns through setFoo(v), not isFoo()
	}
	if a, found := fs.accessor(ctx, t, name, r.Role, r.Args); found {
		return a, true
	}
	return m, ok
}

// hiddenField reports whether m is a private Java field that a Kotlin
// reference of another file cannot read, so that b.foo runs getFoo().
func (fs *fileScope) hiddenField(ctx context.Context, m pkgSym) bool {
	if !fs.javaMember(m, lang.KindField) {
		return false
	}
	_, _, d, ok := fs.declOf(ctx, m)
	return ok && d.Visibility == lang.VisPrivate
}

// javaMember reports whether a Kotlin file sees s as a Java member of the
// kind: a method it may use as a property, a field it may not see.
func (fs *fileScope) javaMember(s pkgSym, kind lang.DefKind) bool {
	return fs.f.Lang == "kotlin" && s.kind == kind && strings.HasSuffix(s.file, ".java")
}
