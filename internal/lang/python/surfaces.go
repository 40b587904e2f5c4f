package python

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Surfaces finds Python's surfaces:
//   - endpoints: route decorators (Flask @app.route with methods=, Flask 2 and
//     FastAPI @app.get/@router.post, api_route, aiohttp/Sanic/Quart alike) with
//     the prefixes of same-file APIRouter(prefix=) and Blueprint(url_prefix=);
//     Flask add_url_rule and Flask-RESTful add_resource; Django path(),
//     re_path() and url() when imported from django;
//   - config keys: os.environ[...], os.environ.get, os.getenv, Django
//     settings.X and getattr(settings, "X"), python-decouple config("X"),
//     django-environ env("X"), pydantic BaseSettings fields;
//   - DB tables: SQL in string literals, SQLAlchemy __tablename__ and
//     Table("t", ...), Django models (Meta.db_table, else <app>_<model> from
//     the file's path);
//   - DI: FastAPI Depends(provider);
//   - exceptions: raise X(...) / raise X;
//   - logs: logging and logger calls (debug, info, warning, error,
//     exception, critical).
func Surfaces(v *lang.View, f *lang.Facts) []lang.Surface {
	p := &pySurf{x: surface.NewFinder(v, f), v: v, prefixes: map[string]string{}, models: map[string]bool{}}
	p.strs = surface.NewStrings(p.x, p.sqlLiteral, "binary_operator")
	p.fw = p.x.Framework(frameworks)
	p.djangoURLs = p.x.ImportsName("path", "django.urls") || p.x.ImportsName("re_path", "django.urls") ||
		p.x.ImportsName("url", "django.conf.urls")
	p.settings = p.x.ImportsName("settings", "django.conf")
	return p.x.Walk(p.strs, map[string]func(int){
		"decorated_definition": p.decorated,
		"call":                 p.call,
		"subscript":            p.subscript,
		"attribute":            p.settingsAttr,
		"raise_statement":      p.raise,
		"class_definition":     p.class,
		"assignment":           p.prefixAssignment,
	})
}

type pySurf struct {
	x          *surface.Finder
	v          *lang.View
	strs       *surface.Strings
	fw         string
	djangoURLs bool
	settings   bool
	prefixes   map[string]string // router/blueprint variable -> URL prefix
	models     map[string]bool   // Django model classes of this file
}

// frameworks are the web frameworks whose decorators declare routes.
var frameworks = [][2]string{
	{"fastapi", "fastapi"}, {"flask", "flask"}, {"quart", "quart"}, {"sanic", "sanic"},
	{"aiohttp", "aiohttp"}, {"starlette", "starlette"}, {"bottle", "bottle"}, {"falcon", "falcon"},
}

// str reads a string literal without interpolation; ok is false otherwise.
func (p *pySurf) str(n int) (string, bool) {
	s, ok, built := p.literal(n, false)
	return s, ok && !built
}

// literal reads a string (or an implicit concatenation of strings):
// its text with interpolations as Hole, or as written when keep is set.
func (p *pySurf) literal(n int, keep bool) (string, bool, bool) {
	v := p.v
	switch v.Kind(n) {
	case "string":
		var b strings.Builder
		built := false
		for _, c := range v.Children(n) {
			switch v.Kind(c) {
			case "string_content":
				b.WriteString(v.Text(c))
			case "interpolation":
				built = true
				if keep {
					b.WriteString(v.Text(c))
				} else {
					b.WriteString(surface.Hole)
				}
			}
		}
		return b.String(), true, built
	case "concatenated_string":
		var b strings.Builder
		built := false
		for _, c := range v.Children(n) {
			if s, ok, bt := p.literal(c, keep); ok {
				b.WriteString(s)
				built = built || bt
			}
		}
		return b.String(), true, built
	}
	return "", false, false
}

// sqlLiteral is literal for the SQL scan; docstrings (a string standing
// alone as a statement) are not code.
func (p *pySurf) sqlLiteral(n int) (string, bool, bool) {
	k := p.v.Kind(n)
	if k != "string" && k != "concatenated_string" {
		return "", false, false
	}
	if p.v.Kind(p.v.Parent(n)) == "expression_statement" {
		return "", false, false
	}
	return p.literal(n, false)
}

// toCall normalises a call node.
func (p *pySurf) toCall(n int) *surface.Call {
	v := p.v
	fn := v.Child(n, "function")
	if fn < 0 {
		return nil
	}
	c := &surface.Call{Node: n}
	if !p.x.Callee(c, fn, "attribute", "attribute", "object") {
		return nil
	}
	if args := v.Child(n, "arguments"); args >= 0 {
		for _, a := range v.Children(args) {
			switch v.Kind(a) {
			case "keyword_argument":
				if name := v.Child(a, "name"); name >= 0 {
					c.Named = append(c.Named, surface.Named{Name: v.Text(name), Node: v.Child(a, "value")})
				}
			case "comment":
			default:
				c.Args = append(c.Args, a)
			}
		}
	}
	return c
}

var routeDecorators = map[string]bool{"route": true, "get": true, "post": true, "put": true, "delete": true, "patch": true,
	"head": true, "options": true, "api_route": true, "websocket": true}

// decorated handles route decorators of a function.
func (p *pySurf) decorated(n int) {
	v := p.v
	def := v.Child(n, "definition")
	if def < 0 || v.Kind(def) != "function_definition" {
		return
	}
	name := v.Child(def, "name")
	if name < 0 {
		return
	}
	for _, d := range v.Children(n) {
		if v.Kind(d) != "decorator" {
			continue
		}
		kids := v.Children(d)
		if len(kids) == 0 || v.Kind(kids[0]) != "call" {
			continue
		}
		c := p.toCall(kids[0])
		if c == nil || c.Recv == "" || !routeDecorators[c.Name] {
			continue
		}
		route, ok := p.str(c.Arg(0))
		if !ok {
			if pa := c.NamedArg("path", "rule"); pa >= 0 {
				route, ok = p.str(pa)
			}
		}
		if !ok || !surface.LooksLikeRoute(route, false) {
			continue
		}
		method := "GET"
		switch c.Name {
		case "route", "api_route":
			if m := c.NamedArg("methods"); m >= 0 {
				method = p.methods(m)
			} else if c.Name == "api_route" {
				method = "ANY"
			}
		case "websocket":
			method = "WS"
		default:
			method = strings.ToUpper(c.Name)
		}
		fw := p.fw
		if fw == "" {
			fw = "python"
		}
		s := p.x.Add(lang.SurfEndpoint, kids[0], surface.JoinRoute(p.prefixes[c.Recv], route), fw, lang.ConfHigh)
		s.Method, s.Detail = method, v.Text(name)
		s.Def = p.x.F.DefAt(v.Start(name))
	}
}

// methods lists the HTTP methods of a methods=[...] argument.
func (p *pySurf) methods(n int) string {
	var ms []string
	p.v.Descendants(n, func(j int) {
		if p.v.Kind(j) == "string" {
			if s, ok := p.str(j); ok {
				if m, ok := surface.HTTPMethod(s); ok {
					ms = append(ms, m)
				}
			}
		}
	})
	if len(ms) == 0 {
		return "ANY"
	}
	return strings.Join(ms, ",")
}

// prefixAssignment records router = APIRouter(prefix="/x") and
// bp = Blueprint("bp", __name__, url_prefix="/x").
func (p *pySurf) prefixAssignment(n int) {
	v := p.v
	left, right := v.Child(n, "left"), v.Child(n, "right")
	if left < 0 || right < 0 || v.Kind(left) != "identifier" || v.Kind(right) != "call" {
		return
	}
	c := p.toCall(right)
	if c == nil {
		return
	}
	var arg int
	switch c.Name {
	case "APIRouter":
		arg = c.NamedArg("prefix")
	case "Blueprint":
		arg = c.NamedArg("url_prefix")
	default:
		return
	}
	if s, ok := p.str(arg); ok {
		p.prefixes[v.Text(left)] = s
	}
}

func (p *pySurf) call(n int) {
	c := p.toCall(n)
	if c == nil {
		return
	}
	switch {
	case c.Recv == "" && p.djangoURLs && (c.Name == "path" || c.Name == "re_path" || c.Name == "url"):
		p.djangoRoute(c)
	case c.Name == "add_url_rule" && c.Recv != "":
		if route, ok := p.str(c.Arg(0)); ok {
			method := "GET"
			if m := c.NamedArg("methods"); m >= 0 {
				method = p.methods(m)
			}
			view := c.NamedArg("view_func")
			if view < 0 {
				view = c.Arg(2)
			}
			s := p.x.Add(lang.SurfEndpoint, c.Arg(0), surface.JoinRoute(p.prefixes[c.Recv], route), "flask", lang.ConfHigh)
			s.Method, s.Detail = method, p.x.Expr(view)
		}
	case c.Name == "add_resource" && c.Recv != "" && len(c.Args) >= 2:
		for _, a := range c.Args[1:] {
			if route, ok := p.str(a); ok {
				s := p.x.Add(lang.SurfEndpoint, a, route, "flask-restful", lang.ConfHigh)
				s.Method, s.Detail = "ANY", p.x.Expr(c.Arg(0))
			}
		}
	case c.Name == "getenv" && (c.Recv == "os" || c.Recv == "" && p.x.ImportsName("getenv", "os")):
		p.x.Key(c.Arg(0), p.str, "env", "getenv")
	case (c.Name == "get" || c.Name == "setdefault" || c.Name == "pop") && (c.Recv == "os.environ" || c.Recv == "environ" && p.x.ImportsName("environ", "os")):
		p.x.Key(c.Arg(0), p.str, "env", "environ."+c.Name)
	case c.Name == "getattr" && c.Recv == "" && p.settings && len(c.Args) >= 2 && p.v.Text(c.Args[0]) == "settings":
		p.x.Key(c.Arg(1), p.str, "django", "settings")
	case c.Name == "config" && c.Recv == "" && p.x.ImportsName("config", "decouple"):
		p.x.Key(c.Arg(0), p.str, "decouple", "config")
	case p.x.Imports("environ") && (c.Recv == "" && c.Name == "env" || c.Recv == "env"):
		p.x.Key(c.Arg(0), p.str, "django-environ", "env")
	case c.Name == "Table" && p.x.Imports("sqlalchemy", "flask_sqlalchemy"):
		if t, ok := p.str(c.Arg(0)); ok && t != "" {
			s := p.x.Add(lang.SurfDBTable, c.Arg(0), t, "sqlalchemy", lang.ConfHigh)
			s.Method = "model"
		}
	case c.Name == "Depends" && c.Recv == "" && p.x.Imports("fastapi"):
		if a := c.Arg(0); a >= 0 {
			s := p.x.Add(lang.SurfDI, a, p.v.Text(a), "fastapi", lang.ConfHigh)
			s.Method = "depends"
		}
	case c.Recv != "":
		if level, ok := surface.PythonLogLevel(c.Name); ok && surface.LoggerLike(c.Recv) {
			p.log(c, level)
		}
	}
}

func (p *pySurf) djangoRoute(c *surface.Call) {
	a := c.Arg(0)
	if a < 0 {
		return
	}
	route, ok := p.str(a)
	if !ok {
		return
	}
	view := c.Arg(1)
	if view < 0 {
		view = c.NamedArg("view")
	}
	s := p.x.Add(lang.SurfEndpoint, a, route, "django", lang.ConfHigh)
	s.Method, s.Detail = "ANY", p.x.Expr(view)
}

func (p *pySurf) log(c *surface.Call, level string) {
	args := c.Args
	if level == "log" && len(args) > 1 {
		args = args[1:] // logger.log(level, msg)
	}
	if len(args) == 0 {
		return
	}
	fw := "logging"
	if c.RecvRoot() != "logging" {
		fw = "logger"
	}
	p.x.Log(args[:1], p.template, args[0], fw, level)
}

// template reads a string as written, interpolations included (a log
// message).
func (p *pySurf) template(n int) (string, bool, bool) {
	return p.literal(n, true)
}

// subscript records os.environ["X"].
func (p *pySurf) subscript(n int) {
	v := p.v
	val := v.Child(n, "value")
	if val < 0 {
		return
	}
	t := v.Text(val)
	if t != "os.environ" && !(t == "environ" && p.x.ImportsName("environ", "os")) {
		return
	}
	p.x.Key(v.Child(n, "subscript"), p.str, "env", "environ")
}

// settingsAttr records Django settings.X.
func (p *pySurf) settingsAttr(n int) {
	if !p.settings {
		return
	}
	v := p.v
	o := v.Child(n, "object")
	if o < 0 || v.Kind(o) != "identifier" || v.Text(o) != "settings" {
		return
	}
	a := v.Child(n, "attribute")
	if a < 0 {
		return
	}
	name := v.Text(a)
	if name != strings.ToUpper(name) {
		return // settings.configure(), settings.configured
	}
	s := p.x.Add(lang.SurfConfigKey, a, name, "django", lang.ConfHigh)
	s.Method = "settings"
}

// raise records raise X(...) and raise X.
func (p *pySurf) raise(n int) {
	v := p.v
	kids := v.Children(n)
	if len(kids) == 0 || v.Field(kids[0]) == "cause" {
		return // a bare raise re-raises
	}
	e := kids[0]
	msg := ""
	if v.Kind(e) == "call" {
		if args := v.Child(e, "arguments"); args >= 0 {
			if a := v.Children(args); len(a) > 0 {
				msg, _, _ = p.literal(a[0], true)
			}
		}
		e = v.Child(e, "function")
	}
	switch v.Kind(e) {
	case "identifier", "attribute":
	default:
		return
	}
	name := v.Text(e)
	conf := lang.ConfHigh
	if !surface.IsTypeName(name) {
		conf = lang.ConfLow // raise err: a variable
	}
	s := p.x.Add(lang.SurfException, kids[0], name, "python", conf)
	s.Detail = msg
}

// class records ORM models (SQLAlchemy __tablename__, Django models) and
// pydantic settings.
func (p *pySurf) class(n int) {
	v := p.v
	name, body, ok := surface.Class(v, n)
	if !ok {
		return
	}
	cls := v.Text(name)
	var bases []string
	if sc := v.Child(n, "superclasses"); sc >= 0 {
		for _, b := range v.Children(sc) {
			if k := v.Kind(b); k == "identifier" || k == "attribute" {
				bases = append(bases, v.Text(b))
			}
		}
	}
	// __tablename__ = "t" (SQLAlchemy declarative)
	for _, st := range v.Children(body) {
		if v.Kind(st) != "expression_statement" {
			continue
		}
		as := v.ChildOfKind(st, "assignment")
		if as < 0 {
			continue
		}
		left, right := v.Child(as, "left"), v.Child(as, "right")
		if left >= 0 && v.Text(left) == "__tablename__" {
			if t, ok := p.str(right); ok && t != "" {
				s := p.x.Add(lang.SurfDBTable, right, t, "sqlalchemy", lang.ConfHigh)
				s.Method, s.Detail = "model", cls
			}
		}
	}
	for _, b := range bases {
		switch {
		case b == "models.Model" || b == "Model" && p.x.ImportsName("Model", "django.db.models") || p.models[b]:
			p.djangoModel(n, name, body, cls)
			return
		case b == "BaseSettings" || strings.HasSuffix(b, ".BaseSettings"):
			p.settingsClass(body)
			return
		}
	}
}

func (p *pySurf) djangoModel(n, name, body int, cls string) {
	v := p.v
	p.models[cls] = true
	table, abstract, proxy := "", false, false
	tableNode := -1
	for _, st := range v.Children(body) {
		if v.Kind(st) != "class_definition" {
			continue
		}
		if mn := v.Child(st, "name"); mn < 0 || v.Text(mn) != "Meta" {
			continue
		}
		mb := v.Child(st, "body")
		if mb < 0 {
			continue
		}
		for _, ms := range v.Children(mb) {
			as := v.ChildOfKind(ms, "assignment")
			if as < 0 {
				continue
			}
			left, right := v.Child(as, "left"), v.Child(as, "right")
			if left < 0 || right < 0 {
				continue
			}
			switch v.Text(left) {
			case "db_table":
				if t, ok := p.str(right); ok {
					table, tableNode = t, right
				}
			case "abstract":
				abstract = v.Text(right) == "True"
			case "proxy":
				proxy = v.Text(right) == "True"
			}
		}
	}
	if abstract || proxy {
		return
	}
	if table != "" {
		s := p.x.Add(lang.SurfDBTable, tableNode, table, "django", lang.ConfHigh)
		s.Method, s.Detail = "model", cls
		s.Def = p.x.F.DefAt(v.Start(name))
		return
	}
	s := p.x.Add(lang.SurfDBTable, name, strings.ToLower(cls), "django", lang.ConfLow)
	s.Method, s.Detail, s.Flags = "model", cls, lang.SurfAppTable
}

// settingsClass records the fields of a pydantic BaseSettings class: each
// is read from the environment variable of its name (case-insensitively,
// after any env_prefix), so the key is low confidence.
func (p *pySurf) settingsClass(body int) {
	v := p.v
	for _, st := range v.Children(body) {
		if v.Kind(st) != "expression_statement" {
			continue
		}
		as := v.ChildOfKind(st, "assignment")
		if as < 0 || v.Child(as, "type") < 0 {
			continue
		}
		left := v.Child(as, "left")
		if left < 0 || v.Kind(left) != "identifier" {
			continue
		}
		name := v.Text(left)
		if name == "model_config" || strings.HasPrefix(name, "_") {
			continue
		}
		s := p.x.Add(lang.SurfConfigKey, left, strings.ToUpper(name), "pydantic", lang.ConfLow)
		s.Method = "settings"
	}
}
