package golang

import (
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Surfaces finds Go's surfaces:
//   - endpoints: net/http and gorilla/mux Handle/HandleFunc (Go 1.22 "GET /p"
//     patterns, .Methods(...)), gin, echo, httprouter and go-restful GET/POST/...,
//     chi and fiber Get/Post/..., Method/Handle with a method argument; prefixes of
//     Group("/p") variables and chi Route("/p", func(r chi.Router) {...});
//   - config keys: os.Getenv/LookupEnv, viper getters, flag/pflag definitions,
//     env/envconfig struct tags;
//   - DB tables: SQL in string literals and concatenations, GORM TableName()
//     methods and db.Table("t");
//   - DI: wire.NewSet/Build/Bind, fx.Provide/Invoke/Supply, dig Provide/Invoke;
//   - exceptions: panic(...), sentinel errors (var ErrX = errors.New("...")),
//     returned error types (return &PathError{...});
//   - logs: log, slog, klog, glog, logrus, zap, logr and zerolog calls.
func Surfaces(v *lang.View, f *lang.Facts) []lang.Surface {
	g := &goSurf{x: surface.NewFinder(v, f), v: v}
	g.strs = surface.NewStrings(g.x, g.literal, "binary_expression")
	g.fw = g.x.Framework(frameworks)
	return g.x.Walk(g.strs, map[string]func(int){
		"call_expression":    g.call,
		"var_spec":           g.sentinel,
		"method_declaration": g.tableName,
		"return_statement":   g.returnedError,
		"field_declaration":  g.envTag,
	})
}

type goSurf struct {
	x        *surface.Finder
	v        *lang.View
	strs     *surface.Strings
	fw       string           // the router framework the file imports, "" when none
	prefixes surface.Prefixes // v1 := r.Group("/v1"), the router parameter of a chi Route closure
}

// frameworks are the routers whose method names decide how routes are read.
var frameworks = [][2]string{
	{"github.com/gin-gonic/gin", "gin"},
	{"github.com/labstack/echo", "echo"},
	{"github.com/labstack/echo/v4", "echo"},
	{"github.com/go-chi/chi", "chi"},
	{"github.com/go-chi/chi/v5", "chi"},
	{"github.com/gofiber/fiber", "fiber"},
	{"github.com/gofiber/fiber/v2", "fiber"},
	{"github.com/julienschmidt/httprouter", "httprouter"},
	{"github.com/emicklei/go-restful", "go-restful"},
	{"github.com/emicklei/go-restful/v3", "go-restful"},
	{"github.com/gorilla/mux", "gorilla/mux"},
}

// literal reads Go string literals: interpreted ("...") and raw (`...`).
func (g *goSurf) literal(n int) (string, bool, bool) {
	switch g.v.Kind(n) {
	case "interpreted_string_literal":
		t := g.v.Text(n)
		if s, err := strconv.Unquote(t); err == nil {
			return s, true, false
		}
		return lang.Unquote(t), true, false
	case "raw_string_literal":
		return lang.Unquote(g.v.Text(n)), true, false
	}
	return "", false, false
}

// str is an argument's literal value; ok is false for anything but a literal.
func (g *goSurf) str(n int) (string, bool) {
	s, ok, built := g.literal(n)
	return s, ok && !built
}

// interesting are the callee names any rule looks at.
var interesting = map[string]bool{
	"HandleFunc": true, "Handle": true, "HandlerFunc": true, "Method": true, "MethodFunc": true,
	"GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true, "HEAD": true, "OPTIONS": true, "Any": true,
	"Get": true, "Post": true, "Put": true, "Delete": true, "Patch": true, "Head": true, "Options": true, "All": true,
	"Group": true, "Route": true, "Mount": true, "Path": true, "Add": true, "Match": true,
	"Getenv": true, "LookupEnv": true, "Table": true,
	"NewSet": true, "Build": true, "Bind": true, "Struct": true, "Provide": true, "Invoke": true, "Supply": true, "Decorate": true,
	"panic": true, "Msg": true, "Msgf": true,
}

var viperGetters = map[string]bool{
	"Get": true, "GetString": true, "GetBool": true, "GetInt": true, "GetInt32": true, "GetInt64": true, "GetUint": true,
	"GetUint16": true, "GetUint32": true, "GetUint64": true, "GetFloat64": true, "GetDuration": true, "GetTime": true,
	"GetIntSlice": true, "GetStringSlice": true, "GetStringMap": true, "GetStringMapString": true,
	"GetStringMapStringSlice": true, "GetSizeInBytes": true, "IsSet": true, "SetDefault": true, "BindEnv": true,
	"Sub": true, "UnmarshalKey": true, "BindPFlag": true,
}

func (g *goSurf) call(n int) {
	v := g.v
	fn := v.Child(n, "function")
	if fn < 0 {
		return
	}
	c := &surface.Call{Node: n}
	var nameNode int
	switch v.Kind(fn) {
	case "selector_expression":
		nameNode = v.Child(fn, "field")
		if op := v.Child(fn, "operand"); op >= 0 {
			c.Recv = v.Head(op, surface.MaxRecv)
		}
	case "identifier":
		nameNode = fn
	default:
		return
	}
	if nameNode < 0 {
		return
	}
	a, b := v.Bytes(nameNode)
	name := v.Src()[a:b]
	_, isLevel := surface.GoLogLevel(string(name))
	if !interesting[string(name)] && !viperGetters[string(name)] && !flagFunc(string(name)) && !isLevel {
		return
	}
	c.Name = string(name)
	if args := v.Child(n, "arguments"); args >= 0 {
		c.Args = v.Children(args)
	}
	if c.Recv == "" {
		if c.Name == "panic" {
			g.panic(c)
		}
		return
	}
	root := c.RecvRoot()
	switch {
	case g.route(c):
	case c.Name == "Getenv" || c.Name == "LookupEnv":
		if root == "os" || root == "syscall" {
			g.x.Key(c.Arg(0), g.str, "env", strings.ToLower(c.Name))
		}
	case viperGetters[c.Name] && (root == "viper" || g.x.Imports("github.com/spf13/viper") && c.Recv != "os"):
		g.x.Key(c.Arg(0), g.str, "viper", c.Name)
	case flagFunc(c.Name) && g.flagReceiver(c):
		arg := 0
		if strings.HasSuffix(strings.TrimSuffix(c.Name, "P"), "Var") {
			arg = 1
		}
		fw := "pflag"
		if root == "flag" || !g.x.Imports("github.com/spf13/pflag") && g.x.Imports("flag") {
			fw = "flag"
		}
		if k, ok := g.str(c.Arg(arg)); ok {
			s := g.x.Add(lang.SurfConfigKey, c.Arg(arg), k, fw, lang.ConfHigh)
			s.Method = "flag"
		}
	case c.Name == "Table" && g.x.Imports("gorm.io/gorm", "github.com/jinzhu/gorm"):
		if t, ok := g.str(c.Arg(0)); ok && t != "" {
			s := g.x.Add(lang.SurfDBTable, c.Arg(0), t, "gorm", lang.ConfHigh)
			s.Method = "model"
		}
	case g.di(c):
	case isLevel || c.Name == "Msg" || c.Name == "Msgf":
		g.log(c)
	}
}

func flagFunc(name string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(name, "P"), "Var")
	switch base {
	case "String", "Bool", "Int", "Int32", "Int64", "Uint", "Uint32", "Uint64", "Float32", "Float64", "Duration",
		"StringSlice", "StringArray", "IntSlice", "StringToString", "BoolSlice", "DurationSlice", "IP", "IPNet",
		"Count", "BytesHex", "BytesBase64":
		return true
	}
	return false
}

func (g *goSurf) flagReceiver(c *surface.Call) bool {
	root := c.RecvRoot()
	if root == "flag" || root == "pflag" {
		return true
	}
	if !g.x.Imports("flag", "github.com/spf13/pflag") && !strings.Contains(c.Recv, "Flags()") {
		return false
	}
	l := strings.ToLower(c.Recv)
	return strings.Contains(l, "flag") || c.Recv == "fs" || c.Recv == "f" || c.Recv == "fset"
}

// route records HTTP routes; it reports whether the call was one.
func (g *goSurf) route(c *surface.Call) bool {
	switch c.Name {
	case "Group", "Route", "Path":
		g.group(c)
		return false
	case "HandleFunc", "Handle", "HandlerFunc", "Method", "MethodFunc", "Add", "Match":
		return g.handle(c)
	case "Mount":
		if g.fw == "chi" && len(c.Args) == 2 {
			return g.addRoute(c, c.Arg(0), "ANY", "chi", c.Arg(1))
		}
		return false
	}
	if len(c.Args) == 1 && g.fw == "go-restful" && strings.ToUpper(c.Name) == c.Name {
		// ws.GET("/{name}").To(handler)
		if m, ok := surface.HTTPMethod(c.Name); ok {
			return g.addRoute(c, c.Arg(0), m, "go-restful", g.chainArg(c.Node, "To"))
		}
	}
	if len(c.Args) < 2 {
		return false
	}
	m, ok := surface.HTTPMethod(c.Name)
	if !ok {
		if c.Name != "Any" && c.Name != "All" {
			return false
		}
		m = "ANY"
	}
	if c.Name == strings.ToUpper(c.Name) || c.Name == "Any" {
		// gin, echo, httprouter, go-restful: r.GET("/p", h)
		fw := g.fw
		switch fw {
		case "gin", "echo", "httprouter", "go-restful":
		case "":
			fw = "router"
		default:
			return false
		}
		return g.addRoute(c, c.Arg(0), m, fw, c.Arg(len(c.Args)-1))
	}
	// chi, fiber: r.Get("/p", h)
	if g.fw != "chi" && g.fw != "fiber" {
		return false
	}
	return g.addRoute(c, c.Arg(0), m, g.fw, c.Arg(len(c.Args)-1))
}

// handle reads Handle/HandleFunc (pattern, handler), the method forms
// Handle(method, pattern, h), Method(method, pattern, h), Add(method, p, h)
// and echo's Match(methods, p, h).
func (g *goSurf) handle(c *surface.Call) bool {
	if len(c.Args) < 2 {
		return false
	}
	first, firstLit := g.str(c.Arg(0))
	if len(c.Args) >= 3 {
		if m, ok := surface.HTTPMethod(first); ok && firstLit {
			return g.addRouteMethod(c, c.Arg(1), m, g.frameworkOr("router"), c.Arg(len(c.Args)-1))
		}
		if c.Name == "Match" && g.fw == "echo" {
			return g.addRoute(c, c.Arg(1), g.methodsOf(c.Arg(0)), "echo", c.Arg(len(c.Args)-1))
		}
	}
	switch c.Name {
	case "Handle", "HandleFunc":
	default:
		return false
	}
	fw := "net/http"
	if g.fw == "gorilla/mux" || g.fw == "chi" {
		fw = g.fw
	}
	if !firstLit {
		// a pattern built at run time: only on receivers that are clearly muxes
		l := strings.ToLower(c.Recv)
		if c.RecvRoot() != "http" && !strings.Contains(l, "mux") && !strings.Contains(l, "router") {
			return false
		}
	} else if !strings.Contains(first, "/") {
		return false
	}
	method := "ANY"
	if firstLit {
		if m, rest, ok := strings.Cut(first, " "); ok {
			if mm, ok := surface.HTTPMethod(m); ok {
				method, first = mm, strings.TrimSpace(rest)
			}
		}
	}
	if m := g.gorillaMethods(c.Node); m != "" {
		method = m
	}
	if !firstLit {
		s := g.x.Add(lang.SurfEndpoint, c.Arg(0), g.x.Expr(c.Arg(0)), fw, lang.ConfLow)
		s.Method, s.Detail = method, g.x.Expr(c.Arg(1))
		return true
	}
	s := g.x.Add(lang.SurfEndpoint, c.Arg(0), surface.JoinRoute(g.prefixOf(c), first), fw, lang.ConfHigh)
	s.Method, s.Detail = method, g.x.Expr(c.Arg(len(c.Args)-1))
	return true
}

func (g *goSurf) frameworkOr(def string) string {
	if g.fw != "" {
		return g.fw
	}
	return def
}

// chainArg is the first argument of a call chained on call: x(...).name(arg).
func (g *goSurf) chainArg(call int, name string) int {
	v := g.v
	sel := v.Parent(call)
	if v.Kind(sel) != "selector_expression" {
		return -1
	}
	if f := v.Child(sel, "field"); f < 0 || v.Text(f) != name {
		return -1
	}
	outer := v.Parent(sel)
	if v.Kind(outer) != "call_expression" {
		return -1
	}
	if args := v.Child(outer, "arguments"); args >= 0 {
		if kids := v.Children(args); len(kids) > 0 {
			return kids[0]
		}
	}
	return -1
}

// gorillaMethods reads r.HandleFunc(...).Methods("GET", "POST").
func (g *goSurf) gorillaMethods(call int) string {
	v := g.v
	sel := v.Parent(call)
	if v.Kind(sel) != "selector_expression" {
		return ""
	}
	f := v.Child(sel, "field")
	if f < 0 || v.Text(f) != "Methods" {
		return ""
	}
	outer := v.Parent(sel)
	if v.Kind(outer) != "call_expression" {
		return ""
	}
	return g.methodsOf(v.Child(outer, "arguments"))
}

// methodsOf lists the HTTP methods named inside node n ("GET",
// http.MethodGet, []string{"GET", "POST"}), joined by commas.
func (g *goSurf) methodsOf(n int) string {
	if n < 0 {
		return "ANY"
	}
	var ms []string
	seen := map[string]bool{}
	add := func(t string) {
		t = strings.TrimPrefix(surface.LastName(t), "Method")
		if m, ok := surface.HTTPMethod(t); ok && !seen[m] {
			seen[m] = true
			ms = append(ms, m)
		}
	}
	g.v.Descendants(n, func(j int) {
		switch g.v.Kind(j) {
		case "interpreted_string_literal", "raw_string_literal":
			s, _ := g.str(j)
			add(s)
		case "selector_expression":
			add(g.v.Text(j))
		}
	})
	if s, ok := g.str(n); ok {
		add(s)
	}
	if len(ms) == 0 {
		return "ANY"
	}
	return strings.Join(ms, ",")
}

func (g *goSurf) addRoute(c *surface.Call, pathArg int, method, fw string, handler int) bool {
	return g.addRouteMethod(c, pathArg, method, fw, handler)
}

func (g *goSurf) addRouteMethod(c *surface.Call, pathArg int, method, fw string, handler int) bool {
	p, ok := g.str(pathArg)
	if !ok {
		if pathArg < 0 {
			return false
		}
		s := g.x.Add(lang.SurfEndpoint, pathArg, g.x.Expr(pathArg), fw, lang.ConfLow)
		s.Method, s.Detail = method, g.x.Expr(handler)
		return true
	}
	if !surface.LooksLikeRoute(p, fw == "go-restful") {
		return false
	}
	s := g.x.Add(lang.SurfEndpoint, pathArg, surface.JoinRoute(g.prefixOf(c), p), fw, lang.ConfHigh)
	s.Method, s.Detail = method, g.x.Expr(handler)
	return true
}

// group records the prefix of v := r.Group("/p"), ws.Path("/p") and the
// router parameter of r.Route("/p", func(r chi.Router) {...}).
func (g *goSurf) group(c *surface.Call) {
	p, ok := g.str(c.Arg(0))
	if !ok || !strings.HasPrefix(p, "/") {
		return
	}
	full := surface.JoinRoute(g.prefixOf(c), p)
	v := g.v
	switch c.Name {
	case "Route":
		fl := c.Arg(1)
		if v.Kind(fl) != "func_literal" {
			return
		}
		params := v.Child(fl, "parameters")
		if params < 0 {
			return
		}
		var name string
		v.Descendants(params, func(j int) {
			if name == "" && v.Kind(j) == "identifier" && v.Field(j) == "name" {
				name = v.Text(j)
			}
		})
		if name != "" {
			s, e := v.Bytes(fl)
			g.prefixes = append(g.prefixes, surface.Prefix{Name: name, Path: full, Start: s, End: e})
		}
	case "Path":
		// go-restful: ws.Path("/apis") names the web service's root
		if g.fw != "go-restful" {
			return
		}
		s, e := g.scopeOf(c.Node)
		g.prefixes = append(g.prefixes, surface.Prefix{Name: c.Recv, Path: full, Start: s, End: e})
	default:
		// v1 := r.Group("/v1") or v1 = r.Group("/v1")
		parent := v.Parent(v.Parent(c.Node))
		switch v.Kind(parent) {
		case "short_var_declaration", "assignment_statement", "var_spec":
		default:
			return
		}
		left := v.Child(parent, "left")
		if left < 0 {
			left = v.Child(parent, "name")
		}
		if left < 0 {
			return
		}
		name := v.Text(left)
		if i := strings.IndexByte(name, ','); i >= 0 {
			name = strings.TrimSpace(name[:i])
		}
		s, e := g.scopeOf(c.Node)
		g.prefixes = append(g.prefixes, surface.Prefix{Name: name, Path: full, Start: s, End: e})
	}
}

// scopeOf is the byte span of the function around node n (the file when none).
func (g *goSurf) scopeOf(n int) (int, int) {
	return surface.PrefixSpan(g.v, n, "function_declaration", "method_declaration", "func_literal")
}

// prefixOf is the route prefix of the call's receiver at the call, if known.
func (g *goSurf) prefixOf(c *surface.Call) string {
	at, _ := g.v.Bytes(c.Node)
	return g.prefixes.Of(c.Recv, at)
}

// di records wire, fx and dig providers.
func (g *goSurf) di(c *surface.Call) bool {
	root := c.RecvRoot()
	var fw, method string
	switch {
	case root == "wire" && (c.Name == "Bind" || c.Name == "Struct"):
		// wire.Bind(new(Iface), new(*Impl)), wire.Struct(new(T), "*")
		t := g.newType(c.Arg(0))
		if t == "" {
			return true
		}
		s := g.x.Add(lang.SurfDI, c.Node, t, "wire", lang.ConfHigh)
		s.Method = strings.ToLower(c.Name)
		if c.Name == "Bind" {
			s.Detail = g.newType(c.Arg(1))
		}
		return true
	case root == "wire" && (c.Name == "NewSet" || c.Name == "Build"):
		fw, method = "wire", strings.ToLower(c.Name)
	case root == "fx" && (c.Name == "Provide" || c.Name == "Invoke" || c.Name == "Supply" || c.Name == "Decorate"):
		fw, method = "fx", strings.ToLower(c.Name)
	case (c.Name == "Provide" || c.Name == "Invoke") && g.x.Imports("go.uber.org/dig"):
		fw, method = "dig", strings.ToLower(c.Name)
	default:
		return false
	}
	for _, a := range c.Args {
		switch g.v.Kind(a) {
		case "identifier", "selector_expression":
			s := g.x.Add(lang.SurfDI, a, g.v.Text(a), fw, lang.ConfHigh)
			s.Method = method
		case "call_expression":
			// fx.Annotate(NewX, fx.As(new(I))): the constructor; wire.Bind
			// and wire.Struct are calls of their own
			if fn := g.v.Text(g.v.Child(a, "function")); fn != "fx.Annotate" && fn != "fx.Annotated" {
				continue
			}
			if inner := g.v.Child(a, "arguments"); inner >= 0 {
				if kids := g.v.Children(inner); len(kids) > 0 {
					if k := g.v.Kind(kids[0]); k == "identifier" || k == "selector_expression" {
						s := g.x.Add(lang.SurfDI, kids[0], g.v.Text(kids[0]), fw, lang.ConfHigh)
						s.Method = method
					}
				}
			}
		}
	}
	return true
}

// newType is T of an argument new(T), else "".
func (g *goSurf) newType(n int) string {
	v := g.v
	if n < 0 || v.Kind(n) != "call_expression" || v.Text(v.Child(n, "function")) != "new" {
		return ""
	}
	if args := v.Child(n, "arguments"); args >= 0 {
		if kids := v.Children(args); len(kids) == 1 {
			return v.Text(kids[0])
		}
	}
	return ""
}

// log records a log call's message template.
func (g *goSurf) log(c *surface.Call) {
	if !surface.LoggerLike(c.Recv) {
		return
	}
	level, ok := surface.GoLogLevel(c.Name)
	if c.Name == "Msg" || c.Name == "Msgf" {
		// zerolog: log.Info().Str("k", v).Msg("text")
		level, ok = "", false
		for _, l := range []string{"Trace", "Debug", "Info", "Warn", "Error", "Fatal", "Panic"} {
			if strings.Contains(c.Recv, "."+l+"(") {
				level, ok = strings.ToLower(l), true
				break
			}
		}
		if !ok {
			level, ok = "log", true
		}
	}
	if !ok || len(c.Args) == 0 {
		return
	}
	fw := c.RecvRoot()
	switch fw {
	case "log", "slog", "klog", "glog", "logrus", "zap", "zerolog":
	default:
		fw = "logger"
	}
	// the message is the first literal among the first arguments
	// (klog.ErrorS(err, "msg"), slog.InfoContext(ctx, "msg"), logr.Error(err, "msg"))
	other := c.Args[0]
	if (strings.HasSuffix(c.Name, "S") || c.Name == "Error") && len(c.Args) > 1 {
		other = c.Args[1]
	}
	g.x.Log(c.Args[:min(len(c.Args), 3)], g.literal, other, fw, level)
}

// panic records panic(...): the message when it is literal or formatted.
func (g *goSurf) panic(c *surface.Call) {
	a := c.Arg(0)
	if a < 0 {
		return
	}
	msg, conf := g.message(a)
	s := g.x.Add(lang.SurfException, c.Node, "panic", "go", conf)
	s.Detail = msg
}

// message is the text of an error or panic value: a literal, the format of
// errors.New/fmt.Errorf/fmt.Sprintf, else the expression (low confidence).
func (g *goSurf) message(n int) (string, lang.Confidence) {
	if s, ok := g.str(n); ok {
		return s, lang.ConfHigh
	}
	v := g.v
	if v.Kind(n) == "call_expression" {
		fn := v.Child(n, "function")
		switch v.Text(fn) {
		case "errors.New", "fmt.Errorf", "fmt.Sprintf", "fmt.Sprint", "errors.Errorf":
			if args := v.Child(n, "arguments"); args >= 0 {
				if kids := v.Children(args); len(kids) > 0 {
					if s, ok := g.str(kids[0]); ok {
						return s, lang.ConfHigh
					}
				}
			}
		}
	}
	return g.x.Expr(n), lang.ConfLow
}

// sentinel records var ErrX = errors.New("...") at the top level.
func (g *goSurf) sentinel(n int) {
	v := g.v
	decl := v.Parent(n)
	if v.Kind(decl) == "var_spec_list" {
		decl = v.Parent(decl)
	}
	if v.Kind(decl) != "var_declaration" || v.Kind(v.Parent(decl)) != "source_file" {
		return
	}
	val := v.Child(n, "value")
	if val < 0 {
		return
	}
	var names []int
	for _, c := range v.Children(n) {
		if v.Field(c) == "name" {
			names = append(names, c)
		}
	}
	vals := v.Children(val)
	for i, nm := range names {
		if i >= len(vals) || v.Kind(vals[i]) != "call_expression" {
			continue
		}
		fn := v.Text(v.Child(vals[i], "function"))
		switch fn {
		case "errors.New", "fmt.Errorf", "errors.Errorf", "status.Error", "status.Errorf", "xerrors.New", "xerrors.Errorf":
		default:
			continue
		}
		msg, _ := g.message(vals[i])
		s := g.x.Add(lang.SurfException, nm, v.Text(nm), "errors", lang.ConfHigh)
		s.Method, s.Detail = "sentinel", msg
		s.Def = g.x.F.DefAt(v.Start(nm))
	}
}

// returnedError records return &FooError{...} and return FooError{...}.
func (g *goSurf) returnedError(n int) {
	v := g.v
	for _, list := range v.Children(n) {
		exprs := []int{list}
		if v.Kind(list) == "expression_list" {
			exprs = v.Children(list)
		}
		for _, e := range exprs {
			lit := e
			if v.Kind(e) == "unary_expression" {
				if op := v.Child(e, "operand"); op >= 0 {
					lit = op
				}
			}
			if v.Kind(lit) != "composite_literal" {
				continue
			}
			t := v.Child(lit, "type")
			if t < 0 {
				continue
			}
			name := v.Text(t)
			if !strings.HasSuffix(name, "Error") && !strings.HasSuffix(name, "Err") {
				continue
			}
			s := g.x.Add(lang.SurfException, lit, name, "go", lang.ConfHigh)
			s.Method = "return"
		}
	}
}

// tableName records GORM's func (T) TableName() string { return "t" }.
func (g *goSurf) tableName(n int) {
	v := g.v
	name := v.Child(n, "name")
	if name < 0 || v.Text(name) != "TableName" {
		return
	}
	body := v.Child(n, "body")
	if body < 0 {
		return
	}
	recv := ""
	if r := v.Child(n, "receiver"); r >= 0 {
		v.Descendants(r, func(j int) {
			if recv == "" && v.Kind(j) == "type_identifier" {
				recv = v.Text(j)
			}
		})
	}
	v.Descendants(body, func(j int) {
		if v.Kind(j) != "return_statement" {
			return
		}
		for _, list := range v.Children(j) {
			for _, e := range v.Children(list) {
				if t, ok := g.str(e); ok && t != "" {
					s := g.x.Add(lang.SurfDBTable, e, t, "gorm", lang.ConfHigh)
					s.Method, s.Detail = "model", recv
				}
			}
		}
	})
}

// envTag records struct fields tagged env:"NAME" or envconfig:"NAME".
func (g *goSurf) envTag(n int) {
	v := g.v
	tag := v.Child(n, "tag")
	if tag < 0 {
		return
	}
	t, ok := g.str(tag)
	if !ok {
		return
	}
	for _, key := range []string{"env", "envconfig"} {
		val, found := lookupTag(t, key)
		if !found {
			continue
		}
		name, _, _ := strings.Cut(val, ",")
		if name == "" || name == "-" {
			continue
		}
		s := g.x.Add(lang.SurfConfigKey, tag, name, key, lang.ConfHigh)
		s.Method = "tag"
	}
}

// lookupTag is reflect.StructTag.Lookup on a tag string.
func lookupTag(tag, key string) (string, bool) {
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return "", false
		}
		name := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return "", false
		}
		q := tag[:i+1]
		tag = tag[i+1:]
		if name == key {
			v, err := strconv.Unquote(q)
			return v, err == nil
		}
	}
	return "", false
}
