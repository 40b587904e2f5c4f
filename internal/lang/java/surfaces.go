package java

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Surfaces finds Java's surfaces:
//   - endpoints: Spring @RequestMapping/@GetMapping/... (class prefix joined),
//     JAX-RS @Path + @GET/@POST/..., Micronaut @Controller + @Get/@Post/...;
//   - config keys: @Value("${key:default}"), @ConfigurationProperties prefixes,
//     Environment.getProperty, System.getenv, System.getProperty;
//   - DB tables: SQL in strings and text blocks (@Query included), JPA
//     @Table(name) or @Entity classes (naming convention, low confidence);
//   - DI: Spring stereotypes (@Component, @Service, @Repository,
//     @Controller, @RestController, @Configuration), @Bean methods, CDI
//     scopes (@ApplicationScoped, @RequestScoped, @Singleton, @Named);
//   - exceptions: throw new X(...), throw e;
//   - logs: SLF4J, Log4j, Logback, JUL and commons-logging calls.
func Surfaces(v *lang.View, f *lang.Facts) []lang.Surface {
	j := &javaSurf{x: surface.NewFinder(v, f), v: v}
	j.strs = surface.NewStrings(j.x, j.literal, "binary_expression")
	j.spring = j.x.Imports("org.springframework")
	return j.x.Walk(j.strs, map[string]func(int){
		"class_declaration":     j.class,
		"interface_declaration": j.class,
		"record_declaration":    j.class,
		"method_invocation":     j.call,
		"throw_statement":       j.throw,
		"annotation":            j.valueAnnotation,
	})
}

type javaSurf struct {
	x      *surface.Finder
	v      *lang.View
	strs   *surface.Strings
	spring bool
}

// literal reads a string literal or text block (escapes are kept as written).
func (j *javaSurf) literal(n int) (string, bool, bool) {
	if j.v.Kind(n) != "string_literal" {
		return "", false, false
	}
	return surface.Pieces(j.v, n, "", "string_fragment", "multiline_string_fragment", "escape_sequence"), true, false
}

func (j *javaSurf) str(n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	s, ok, _ := j.literal(n)
	return s, ok
}

// annotation is an annotation's name and arguments: the value (or the
// unnamed argument) and the named elements.
type annotation struct {
	node  int
	name  string
	value int // the unnamed argument or value=, -1 when none
	named map[string]int
}

func (j *javaSurf) annotation(n int) *annotation {
	v := j.v
	nm := v.Child(n, "name")
	if nm < 0 {
		return nil
	}
	a := &annotation{node: n, name: surface.LastName(v.Text(nm)), value: -1, named: map[string]int{}}
	args := v.Child(n, "arguments")
	if args < 0 {
		return a
	}
	for _, c := range v.Children(args) {
		if v.Kind(c) == "element_value_pair" {
			k, val := v.Child(c, "key"), v.Child(c, "value")
			if k >= 0 && val >= 0 {
				a.named[v.Text(k)] = val
			}
			continue
		}
		if v.Kind(c) != "line_comment" && v.Kind(c) != "block_comment" && a.value < 0 {
			a.value = c
		}
	}
	if a.value < 0 {
		if val, ok := a.named["value"]; ok {
			a.value = val
		}
	}
	return a
}

// annotations lists the annotations in the modifiers of a declaration.
func (j *javaSurf) annotations(decl int) []*annotation {
	v := j.v
	mods := v.ChildOfKind(decl, "modifiers")
	if mods < 0 {
		return nil
	}
	var out []*annotation
	for _, c := range v.Children(mods) {
		switch v.Kind(c) {
		case "annotation", "marker_annotation":
			if a := j.annotation(c); a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// strings lists the string literals of an annotation element ("x" or {"x", "y"}).
func (j *javaSurf) strings(n int) []int {
	if n < 0 {
		return nil
	}
	if j.v.Kind(n) == "string_literal" {
		return []int{n}
	}
	var out []int
	if j.v.Kind(n) == "element_value_array_initializer" {
		for _, c := range j.v.Children(n) {
			if j.v.Kind(c) == "string_literal" {
				out = append(out, c)
			}
		}
	}
	return out
}

var springMappings = map[string]string{"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT",
	"DeleteMapping": "DELETE", "PatchMapping": "PATCH", "RequestMapping": ""}

var diAnnotations = map[string]string{"Component": "spring", "Service": "spring", "Repository": "spring",
	"Controller": "spring", "RestController": "spring", "Configuration": "spring", "ControllerAdvice": "spring",
	"RestControllerAdvice": "spring", "ApplicationScoped": "cdi", "RequestScoped": "cdi", "SessionScoped": "cdi",
	"Dependent": "cdi", "Singleton": "jakarta", "Named": "jakarta"}

// class handles the annotations of a type and of its members.
func (j *javaSurf) class(n int) {
	v := j.v
	name, body, ok := surface.Class(v, n)
	if !ok {
		return
	}
	cls := v.Text(name)
	var prefixes []string
	routeFW := ""
	entity, table := false, false
	entityName := ""
	for _, a := range j.annotations(n) {
		switch a.name {
		case "RequestMapping":
			routeFW = "spring"
			prefixes = j.paths(a)
		case "Path":
			routeFW = "jax-rs"
			if s, ok := j.str(a.value); ok {
				prefixes = []string{s}
			}
		case "Controller":
			if !j.spring {
				routeFW = "micronaut"
				if s, ok := j.str(a.value); ok {
					prefixes = []string{s}
				}
			}
		case "Table":
			if t, ok := j.str(a.named["name"]); ok && t != "" {
				if sch, ok := j.str(a.named["schema"]); ok && sch != "" {
					t = sch + "." + t
				}
				s := j.x.Add(lang.SurfDBTable, a.named["name"], t, "jpa", lang.ConfHigh)
				s.Method, s.Detail = "model", cls
				table = true
			}
		case "Entity":
			entity = true
			if en, ok := j.str(a.named["name"]); ok {
				entityName = en
			}
		case "ConfigurationProperties":
			p := a.value
			if pn, ok := a.named["prefix"]; ok {
				p = pn
			}
			if s, ok := j.str(p); ok && s != "" {
				x := j.x.Add(lang.SurfConfigKey, p, s, "spring", lang.ConfHigh)
				x.Method = "prefix"
			}
		}
		if fw, ok := diAnnotations[a.name]; ok && !(a.name == "Controller" && !j.spring) {
			if fw == "spring" && !j.spring && j.x.Imports("jakarta", "javax") {
				continue
			}
			s := j.x.Add(lang.SurfDI, a.node, cls, fw, lang.ConfHigh)
			s.Method = strings.ToLower(a.name)
		}
	}
	if entity && !table {
		t := cls
		if entityName != "" {
			t = entityName
		} else if j.spring {
			t = surface.SnakeCase(cls) // Spring Boot's physical naming strategy
		}
		s := j.x.Add(lang.SurfDBTable, name, t, "jpa", lang.ConfLow)
		s.Method, s.Detail = "model", cls
	}
	if len(prefixes) == 0 {
		prefixes = []string{""}
	}
	for _, m := range v.Children(body) {
		if v.Kind(m) != "method_declaration" {
			continue
		}
		mname := v.Child(m, "name")
		for _, a := range j.annotations(m) {
			if a.name == "Bean" {
				t := v.Child(m, "type")
				val := v.Text(mname)
				if t >= 0 {
					val = v.Text(t)
				}
				s := j.x.Add(lang.SurfDI, a.node, val, "spring", lang.ConfHigh)
				s.Method, s.Detail = "bean", v.Text(mname)
				continue
			}
			j.methodRoute(a, m, mname, cls, prefixes, routeFW)
		}
	}
}

// paths lists the paths of a mapping annotation (value/path, one or an array).
func (j *javaSurf) paths(a *annotation) []string {
	n := a.value
	if p, ok := a.named["path"]; ok {
		n = p
	}
	var out []string
	for _, s := range j.strings(n) {
		if t, ok := j.str(s); ok {
			out = append(out, t)
		}
	}
	return out
}

// methodRoute records a route annotation on a method.
func (j *javaSurf) methodRoute(a *annotation, m, mname int, cls string, prefixes []string, classFW string) {
	v := j.v
	var method, fw string
	var paths []string
	explicit := true
	if sm, ok := springMappings[a.name]; ok {
		fw, method = "spring", sm
		paths = j.paths(a)
		if a.name == "RequestMapping" {
			method = j.requestMethods(a.named["method"])
		}
		_, hasPath := a.named["path"]
		if len(paths) == 0 && (a.value >= 0 || hasPath) {
			explicit = false // a path built from a constant
		}
	} else {
		hm, ok := surface.HTTPMethod(a.name)
		if !ok {
			return
		}
		switch {
		case a.name == strings.ToUpper(a.name) && (classFW == "jax-rs" || j.x.Imports("javax.ws.rs", "jakarta.ws.rs")):
			// JAX-RS: @GET with an optional @Path on the method
			fw, method = "jax-rs", hm
			for _, o := range j.annotations(m) {
				if o.name == "Path" {
					if s, ok := j.str(o.value); ok {
						paths = append(paths, s)
					}
				}
			}
		case classFW == "micronaut" && a.name != strings.ToUpper(a.name):
			fw, method = "micronaut", hm
			paths = j.paths(a)
		default:
			return
		}
	}
	if !explicit {
		s := j.x.Add(lang.SurfEndpoint, a.node, j.x.Expr(a.value), fw, lang.ConfLow)
		s.Method = method
		if mname >= 0 {
			s.Detail = cls + "." + v.Text(mname)
		}
		return
	}
	if len(paths) == 0 {
		paths = []string{""}
	}
	for _, pre := range prefixes {
		for _, p := range paths {
			route := surface.JoinRoute(pre, p)
			if !strings.HasPrefix(route, "/") {
				route = "/" + route
			}
			s := j.x.Add(lang.SurfEndpoint, a.node, route, fw, lang.ConfHigh)
			s.Method = method
			if mname >= 0 {
				s.Detail = cls + "." + v.Text(mname)
			}
		}
	}
}

// requestMethods reads method = RequestMethod.GET or {GET, POST}.
func (j *javaSurf) requestMethods(n int) string {
	if n <= 0 {
		return "ANY"
	}
	var ms []string
	add := func(t string) {
		if m, ok := surface.HTTPMethod(surface.LastName(t)); ok {
			ms = append(ms, m)
		}
	}
	add(j.v.Text(n))
	j.v.Descendants(n, func(k int) {
		if j.v.Kind(k) == "field_access" || j.v.Kind(k) == "identifier" && j.v.Kind(j.v.Parent(k)) == "element_value_array_initializer" {
			add(j.v.Text(k))
		}
	})
	if len(ms) == 0 {
		return "ANY"
	}
	return strings.Join(ms, ",")
}

// valueAnnotation records @Value("${key}") and Micronaut @Property(name = "key").
func (j *javaSurf) valueAnnotation(n int) {
	a := j.annotation(n)
	if a == nil {
		return
	}
	switch a.name {
	case "Value":
		s, ok := j.str(a.value)
		if !ok {
			return
		}
		for _, k := range placeholders(s) {
			x := j.x.Add(lang.SurfConfigKey, a.value, k, "spring", lang.ConfHigh)
			x.Method = "@Value"
		}
	case "Property":
		if s, ok := j.str(a.named["name"]); ok {
			x := j.x.Add(lang.SurfConfigKey, a.named["name"], s, "micronaut", lang.ConfHigh)
			x.Method = "@Property"
		}
	}
}

// placeholders lists the keys of ${key:default} placeholders.
func placeholders(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return out
		}
		k := s[:end]
		if c := strings.IndexByte(k, ':'); c >= 0 {
			k = k[:c]
		}
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
		s = s[end+1:]
	}
}

func (j *javaSurf) call(n int) {
	v := j.v
	nm := v.Child(n, "name")
	obj := v.Child(n, "object")
	if nm < 0 || obj < 0 {
		return
	}
	name := v.Text(nm)
	recv := v.Head(obj, surface.MaxRecv)
	var args []int
	if al := v.Child(n, "arguments"); al >= 0 {
		for _, a := range v.Children(al) {
			if k := v.Kind(a); k != "line_comment" && k != "block_comment" {
				args = append(args, a)
			}
		}
	}
	arg := func(i int) int {
		if i < len(args) {
			return args[i]
		}
		return -1
	}
	switch {
	case recv == "System" && (name == "getenv" || name == "getProperty"):
		fw := "env"
		if name == "getProperty" {
			fw = "system-property"
		}
		j.x.Key(arg(0), j.str, fw, name)
	case (name == "getProperty" || name == "getRequiredProperty" || name == "containsProperty") && strings.Contains(strings.ToLower(recv), "env"):
		j.x.Key(arg(0), j.str, "spring", name)
	default:
		level, ok := surface.JVMLogLevel(name)
		if !ok || !surface.LoggerLike(recv) || len(args) == 0 {
			return
		}
		if level == "log" && len(args) > 1 {
			level = strings.ToLower(surface.LastName(v.Text(args[0])))
			args = args[1:]
		}
		j.x.Log(args[:min(len(args), 2)], j.literal, args[0], "slf4j", level)
	}
}

// throw records throw new X(...) and throw e.
func (j *javaSurf) throw(n int) {
	j.x.Throw(n, "java", []string{"identifier", "field_access", "method_invocation"}, func(list int) string {
		if list < 0 {
			return ""
		}
		a := j.v.Children(list)
		if len(a) == 0 {
			return ""
		}
		msg, _ := j.str(a[0])
		return msg
	})
}
