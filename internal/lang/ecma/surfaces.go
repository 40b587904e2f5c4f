package ecma

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Surfaces finds the surfaces of JavaScript and TypeScript:
//   - endpoints: Express, Koa-router, Hono, Fastify and restify
//     app.get("/p", handler) (and app.route("/p").get(h)), Fastify/Hapi
//     route({method, url|path}), NestJS @Controller + @Get/@Post...,
//     Next.js route files (exported GET/POST/... of app/**/route.ts, the
//     default export of pages/api/**: completed from the path at query time);
//   - config keys: process.env.X, process.env["X"], const {X} = process.env,
//     import.meta.env.X, Deno.env.get("X"), config.get("x") and NestJS
//     ConfigService.get("x");
//   - DB tables: SQL in strings and templates (sql`...` tags included),
//     TypeORM/MikroORM @Entity, Sequelize define/init tableName, Mongoose
//     model(), Knex schema.createTable, Prisma client calls (prisma.user.x());
//   - DI: @Injectable classes, providers of @Module/@NgModule/@Component;
//   - exceptions: throw new X(...), throw X(...), throw err;
//   - logs: console.*, and logger calls (winston, pino, bunyan, NestJS Logger).
func Surfaces(v *lang.View, f *lang.Facts) []lang.Surface {
	e := &esSurf{x: surface.NewFinder(v, f), v: v, prefixes: map[string]string{}}
	e.strs = surface.NewStrings(e.x, e.sqlLiteral, "binary_expression")
	e.fw = e.x.Framework(frameworks)
	return e.x.Walk(e.strs, map[string]func(int){
		"call_expression":            e.call,
		"member_expression":          e.member,
		"subscript_expression":       e.subscript,
		"variable_declarator":        e.declarator,
		"throw_statement":            e.throw,
		"class_declaration":          e.class,
		"abstract_class_declaration": e.class,
		"class":                      e.class,
		"export_statement":           e.export,
	})
}

type esSurf struct {
	x        *surface.Finder
	v        *lang.View
	strs     *surface.Strings
	fw       string
	prefixes map[string]string // router variable -> prefix (new Router({prefix}))
}

// frameworks are the libraries that decide how routes are read.
var frameworks = [][2]string{
	{"express", "express"}, {"fastify", "fastify"}, {"koa-router", "koa"}, {"@koa/router", "koa"},
	{"hono", "hono"}, {"restify", "restify"}, {"@hapi/hapi", "hapi"}, {"polka", "polka"},
	{"next", "nextjs"}, {"@nestjs/common", "nestjs"},
}

// literal reads a string or template literal: its text with substitutions
// as Hole (or as written when keep is set), and whether it has any.
func (e *esSurf) literal(n int, keep bool) (string, bool, bool) {
	v := e.v
	switch v.Kind(n) {
	case "string":
		t := v.Text(n)
		if len(t) >= 2 {
			t = t[1 : len(t)-1]
		}
		return t, true, false
	case "template_string":
		if keep {
			t := v.Text(n)
			return strings.TrimSuffix(strings.TrimPrefix(t, "`"), "`"), true, v.ChildOfKind(n, "template_substitution") >= 0
		}
		var b strings.Builder
		built := false
		a, end := v.Bytes(n)
		pos := a + 1
		for _, c := range v.Children(n) {
			if v.Kind(c) != "template_substitution" {
				continue
			}
			cs, ce := v.Bytes(c)
			b.Write(v.Src()[pos:cs])
			b.WriteString(surface.Hole)
			pos = ce
			built = true
		}
		if end-1 > pos {
			b.Write(v.Src()[pos : end-1])
		}
		return b.String(), true, built
	}
	return "", false, false
}

func (e *esSurf) str(n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	s, ok, built := e.literal(n, false)
	return s, ok && !built
}

// sqlLiteral is literal for the SQL scan: a template tagged sql`...` passes
// its substitutions as parameters, so it is not built.
func (e *esSurf) sqlLiteral(n int) (string, bool, bool) {
	s, ok, built := e.literal(n, false)
	if ok && built && e.v.Kind(n) == "template_string" && e.v.Kind(e.v.Parent(n)) == "call_expression" && e.v.Field(n) == "arguments" {
		built = false
	}
	return s, ok, built
}

// toCall normalises a call or new expression.
func (e *esSurf) toCall(n int) *surface.Call {
	v := e.v
	fn := v.Child(n, "function")
	if fn < 0 {
		fn = v.Child(n, "constructor")
	}
	if fn < 0 {
		return nil
	}
	c := &surface.Call{Node: n}
	if !e.x.Callee(c, fn, "member_expression", "property", "object") {
		return nil
	}
	if ta := v.Child(n, "type_arguments"); ta >= 0 {
		for _, t := range v.Children(ta) {
			c.TypeArgs = append(c.TypeArgs, v.Text(t))
		}
	}
	if args := v.Child(n, "arguments"); args >= 0 {
		if v.Kind(args) == "template_string" {
			c.Args = []int{args}
		} else {
			for _, a := range v.Children(args) {
				if v.Kind(a) != "comment" {
					c.Args = append(c.Args, a)
				}
			}
		}
	}
	return c
}

var routeMethods = map[string]bool{"get": true, "post": true, "put": true, "delete": true, "patch": true, "head": true,
	"options": true, "all": true, "del": true}

// routerLike are receiver names that are routers even without a known import.
func routerLike(recv string) bool {
	last := strings.ToLower(recv)
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		last = last[i+1:]
	}
	switch last {
	case "app", "router", "server", "api", "routes", "route", "fastify", "instance":
		return true
	}
	return strings.HasSuffix(last, "router") || strings.HasSuffix(last, "routes")
}

func (e *esSurf) call(n int) {
	c := e.toCall(n)
	if c == nil || c.Name == "" {
		return
	}
	switch {
	case routeMethods[c.Name] && c.Recv != "":
		if e.route(c) {
			return
		}
	case c.Name == "route" && c.Recv != "" && len(c.Args) == 1 && e.v.Kind(c.Args[0]) == "object":
		e.routeObject(c)
		return
	}
	switch {
	case c.Name == "get" && c.Recv == "Deno.env":
		e.x.Key(c.Arg(0), e.str, "deno", "env")
	case (c.Name == "get" || c.Name == "getOrThrow" || c.Name == "has") && configLike(c.Recv) && len(c.Args) >= 1:
		if _, ok := e.str(c.Arg(0)); ok {
			fw := "config"
			if strings.Contains(c.Recv, "configService") || strings.Contains(c.Recv, "ConfigService") || e.fw == "nestjs" {
				fw = "nestjs"
			}
			e.x.Key(c.Arg(0), e.str, fw, c.Name)
		}
	case (c.Name == "define" || c.Name == "init") && c.Recv != "" && e.x.Imports("sequelize", "sequelize-typescript"):
		e.sequelize(c)
	case c.Name == "model" && (c.Recv == "mongoose" || c.Recv == "" && e.x.Imports("mongoose")):
		if name, ok := e.str(c.Arg(0)); ok {
			s := e.x.Add(lang.SurfDBTable, c.Arg(0), name, "mongoose", lang.ConfLow)
			s.Method = "model"
		}
	case strings.HasSuffix(c.Name, "Table") && strings.Contains(c.Recv, "schema") && e.x.Imports("knex"):
		if name, ok := e.str(c.Arg(0)); ok {
			s := e.x.Add(lang.SurfDBTable, c.Arg(0), name, "knex", lang.ConfHigh)
			s.Method = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(c.Name, "IfExists"), "Table"))
		}
	case prismaOps[c.Name] && strings.HasPrefix(c.Recv, "prisma.") && strings.Count(c.Recv, ".") == 1:
		s := e.x.Add(lang.SurfDBTable, n, strings.TrimPrefix(c.Recv, "prisma."), "prisma", lang.ConfLow)
		s.Method = "client"
	default:
		if level, ok := surface.ScriptLogLevel(c.Name); ok && c.Recv != "" && surface.LoggerLike(c.Recv) {
			e.log(c, level)
		}
	}
}

var prismaOps = map[string]bool{"findMany": true, "findUnique": true, "findFirst": true, "findUniqueOrThrow": true,
	"findFirstOrThrow": true, "create": true, "createMany": true, "update": true, "updateMany": true, "upsert": true,
	"delete": true, "deleteMany": true, "count": true, "aggregate": true, "groupBy": true}

func configLike(recv string) bool {
	l := strings.ToLower(recv)
	if i := strings.LastIndexByte(l, '.'); i >= 0 {
		l = l[i+1:]
	}
	return l == "config" || l == "configservice" || l == "_config" || l == "conf" || l == "nconf" || strings.HasSuffix(l, "configservice")
}

// route records app.get("/p", ...handlers) and app.route("/p").get(h).
func (e *esSurf) route(c *surface.Call) bool {
	method := strings.ToUpper(c.Name)
	if method == "ALL" {
		method = "ANY"
	}
	if method == "DEL" {
		method = "DELETE"
	}
	// app.route("/book").get(h): the path is in the chain below
	if len(c.Args) >= 1 && !e.isStringArg(c.Arg(0)) {
		if p, ok := e.chainRoute(c.Node); ok {
			s := e.x.Add(lang.SurfEndpoint, c.Node, p, e.frameworkOr("express"), lang.ConfHigh)
			s.Method, s.Detail = method, e.x.Expr(c.Arg(len(c.Args)-1))
			return true
		}
		return false
	}
	if len(c.Args) < 2 {
		return false
	}
	p, ok := e.str(c.Arg(0))
	if !ok || !surface.LooksLikeRoute(p, false) {
		return false
	}
	last := c.Arg(len(c.Args) - 1)
	switch e.v.Kind(last) {
	case "arrow_function", "function_expression", "function", "identifier", "member_expression", "call_expression":
	default:
		return false
	}
	fw := e.fw
	switch fw {
	case "express", "fastify", "koa", "hono", "restify", "polka":
	default:
		if !routerLike(c.Recv) {
			return false
		}
		fw = "express"
	}
	s := e.x.Add(lang.SurfEndpoint, c.Arg(0), surface.JoinRoute(e.prefixes[c.Recv], p), fw, lang.ConfHigh)
	s.Method, s.Detail = method, e.x.Expr(last)
	return true
}

func (e *esSurf) frameworkOr(def string) string {
	switch e.fw {
	case "", "nextjs", "nestjs":
		return def
	}
	return e.fw
}

func (e *esSurf) isStringArg(n int) bool {
	k := e.v.Kind(n)
	return k == "string" || k == "template_string"
}

// chainRoute finds the path of app.route("/p") below a chained method call.
func (e *esSurf) chainRoute(call int) (string, bool) {
	v := e.v
	for depth := 0; depth < 8; depth++ {
		fn := v.Child(call, "function")
		if v.Kind(fn) != "member_expression" {
			return "", false
		}
		obj := v.Child(fn, "object")
		if v.Kind(obj) != "call_expression" {
			return "", false
		}
		inner := e.toCall(obj)
		if inner == nil {
			return "", false
		}
		if inner.Name == "route" {
			p, ok := e.str(inner.Arg(0))
			return p, ok && surface.LooksLikeRoute(p, false)
		}
		if !routeMethods[inner.Name] {
			return "", false
		}
		call = obj
	}
	return "", false
}

// routeObject records fastify.route({method, url, handler}) and Hapi's
// server.route({method, path, handler}).
func (e *esSurf) routeObject(c *surface.Call) {
	pairs := e.pairs(c.Args[0])
	pathNode, ok := pairs["url"]
	fw := "fastify"
	if !ok {
		pathNode, ok = pairs["path"]
		fw = "hapi"
	}
	if !ok {
		return
	}
	p, lit := e.str(pathNode)
	if !lit || !surface.LooksLikeRoute(p, false) {
		return
	}
	method := "ANY"
	if m, ok := pairs["method"]; ok {
		var ms []string
		if s, ok := e.str(m); ok {
			ms = append(ms, strings.ToUpper(s))
		}
		e.v.Descendants(m, func(j int) {
			if s, ok := e.str(j); ok {
				ms = append(ms, strings.ToUpper(s))
			}
		})
		if len(ms) > 0 {
			method = strings.Join(ms, ",")
		}
	}
	s := e.x.Add(lang.SurfEndpoint, pathNode, p, fw, lang.ConfHigh)
	s.Method = method
	if h, ok := pairs["handler"]; ok {
		s.Detail = e.x.Expr(h)
	}
}

// pairs maps the keys of an object literal to their value nodes.
func (e *esSurf) pairs(obj int) map[string]int {
	v := e.v
	out := map[string]int{}
	for _, p := range v.Children(obj) {
		switch v.Kind(p) {
		case "pair":
			k, val := v.Child(p, "key"), v.Child(p, "value")
			if k < 0 || val < 0 {
				continue
			}
			key := v.Text(k)
			if s, ok := e.str(k); ok {
				key = s
			}
			out[key] = val
		case "shorthand_property_identifier":
			out[v.Text(p)] = p
		}
	}
	return out
}

// member records process.env.X and import.meta.env.X.
func (e *esSurf) member(n int) {
	v := e.v
	obj := v.Child(n, "object")
	prop := v.Child(n, "property")
	if obj < 0 || prop < 0 || v.Kind(obj) != "member_expression" {
		return
	}
	switch v.Text(obj) {
	case "process.env":
		s := e.x.Add(lang.SurfConfigKey, prop, v.Text(prop), "env", lang.ConfHigh)
		s.Method = "process.env"
	case "import.meta.env":
		s := e.x.Add(lang.SurfConfigKey, prop, v.Text(prop), "vite", lang.ConfHigh)
		s.Method = "import.meta.env"
	case "Bun.env":
		s := e.x.Add(lang.SurfConfigKey, prop, v.Text(prop), "bun", lang.ConfHigh)
		s.Method = "env"
	}
}

// subscript records process.env["X"] and process.env[name].
func (e *esSurf) subscript(n int) {
	v := e.v
	obj := v.Child(n, "object")
	if obj < 0 || v.Text(obj) != "process.env" {
		return
	}
	e.x.Key(v.Child(n, "index"), e.str, "env", "process.env")
}

// declarator records const {A, B: b} = process.env and router prefixes.
func (e *esSurf) declarator(n int) {
	v := e.v
	name, val := v.Child(n, "name"), v.Child(n, "value")
	if name < 0 || val < 0 {
		return
	}
	switch {
	case v.Kind(name) == "object_pattern" && (v.Text(val) == "process.env" || v.Text(val) == "import.meta.env"):
		fw := "env"
		if v.Text(val) == "import.meta.env" {
			fw = "vite"
		}
		for _, p := range v.Children(name) {
			key := -1
			switch v.Kind(p) {
			case "shorthand_property_identifier_pattern":
				key = p
			case "pair_pattern":
				key = v.Child(p, "key")
			case "object_assignment_pattern":
				key = v.Child(p, "left")
			}
			if key >= 0 {
				s := e.x.Add(lang.SurfConfigKey, key, v.Text(key), fw, lang.ConfHigh)
				s.Method = "destructure"
			}
		}
	case v.Kind(name) == "identifier" && v.Kind(val) == "new_expression":
		c := e.toCall(val)
		if c == nil || !strings.HasSuffix(c.Name, "Router") || len(c.Args) == 0 || e.v.Kind(c.Args[0]) != "object" {
			return
		}
		if p, ok := e.pairs(c.Args[0])["prefix"]; ok {
			if s, ok := e.str(p); ok {
				e.prefixes[v.Text(name)] = s
			}
		}
	}
}

func (e *esSurf) sequelize(c *surface.Call) {
	var opts, nameNode int = -1, -1
	if c.Name == "define" {
		nameNode, opts = c.Arg(0), c.Arg(2)
	} else {
		opts = c.Arg(1)
	}
	if opts >= 0 && e.v.Kind(opts) == "object" {
		if t, ok := e.pairs(opts)["tableName"]; ok {
			if name, ok := e.str(t); ok {
				s := e.x.Add(lang.SurfDBTable, t, name, "sequelize", lang.ConfHigh)
				s.Method = "model"
				return
			}
		}
	}
	if name, ok := e.str(nameNode); ok {
		// Sequelize pluralises the model name unless told otherwise
		s := e.x.Add(lang.SurfDBTable, nameNode, name, "sequelize", lang.ConfLow)
		s.Method = "model"
	}
}

// throw records throw new X(...), throw X(...) and throw err.
func (e *esSurf) throw(n int) {
	v := e.v
	kids := v.Children(n)
	if len(kids) == 0 {
		return
	}
	x := kids[0]
	if v.Kind(x) == "parenthesized_expression" {
		if k := v.Children(x); len(k) > 0 {
			x = k[0]
		}
	}
	switch v.Kind(x) {
	case "new_expression", "call_expression":
		c := e.toCall(x)
		if c == nil {
			return
		}
		name := c.Name
		if c.Recv != "" {
			name = c.Recv + "." + c.Name
		}
		s := e.x.Add(lang.SurfException, x, name, "js", lang.ConfHigh)
		if len(c.Args) > 0 {
			if m, ok, _ := e.literal(c.Args[0], true); ok {
				s.Detail = m
			}
		}
	case "identifier", "member_expression":
		name := v.Text(x)
		conf := lang.ConfLow
		if surface.IsTypeName(name) {
			conf = lang.ConfHigh
		}
		e.x.Add(lang.SurfException, x, name, "js", conf)
	}
}

func (e *esSurf) log(c *surface.Call, level string) {
	if len(c.Args) == 0 {
		return
	}
	fw := "logger"
	if c.Recv == "console" {
		fw = "console"
	}
	e.x.Log(c.Args[:min(len(c.Args), 2)], e.template, c.Args[0], fw, level)
}

// template reads a literal as written, substitutions included (a log
// message).
func (e *esSurf) template(n int) (string, bool, bool) {
	return e.literal(n, true)
}

// class handles the decorators of a class and of its members: NestJS
// controllers and routes, @Injectable, @Module providers, @Entity.
func (e *esSurf) class(n int) {
	v := e.v
	name, body, ok := surface.Class(v, n)
	if !ok {
		return
	}
	cls := v.Text(name)
	decos := e.decorators(n)
	if p := v.Parent(n); v.Kind(p) == "export_statement" {
		decos = append(e.decorators(p), decos...)
	}
	controller, isController := "", false
	for _, d := range decos {
		c := e.decoratorCall(d)
		if c == nil {
			continue
		}
		switch c.Name {
		case "Controller":
			isController = true
			if p, ok := e.str(c.Arg(0)); ok {
				controller = p
			} else if c.Arg(0) >= 0 && v.Kind(c.Arg(0)) == "object" {
				if pn, ok := e.pairs(c.Arg(0))["path"]; ok {
					controller, _ = e.str(pn)
				}
			}
		case "Injectable":
			fw := "injectable"
			switch {
			case e.x.Imports("@nestjs/common"):
				fw = "nestjs"
			case e.x.Imports("@angular/core"):
				fw = "angular"
			case e.x.Imports("inversify"):
				fw = "inversify"
			}
			s := e.x.Add(lang.SurfDI, d, cls, fw, lang.ConfHigh)
			s.Method = "injectable"
			s.Def = e.x.F.DefAt(v.Start(name))
		case "Module", "NgModule", "Component":
			if c.Arg(0) >= 0 && v.Kind(c.Arg(0)) == "object" {
				if pr, ok := e.pairs(c.Arg(0))["providers"]; ok {
					e.providers(pr, name)
				}
			}
		case "Entity":
			if !e.x.Imports("typeorm", "@mikro-orm/core") {
				continue
			}
			table, node, conf := surface.SnakeCase(cls), d, lang.ConfLow
			if t, ok := e.str(c.Arg(0)); ok {
				table, node, conf = t, c.Arg(0), lang.ConfHigh
			} else if c.Arg(0) >= 0 && v.Kind(c.Arg(0)) == "object" {
				ps := e.pairs(c.Arg(0))
				for _, k := range []string{"name", "tableName"} {
					if tn, ok := ps[k]; ok {
						if t, ok := e.str(tn); ok {
							table, node, conf = t, tn, lang.ConfHigh
						}
					}
				}
			}
			fw := "typeorm"
			if e.x.Imports("@mikro-orm/core") {
				fw = "mikro-orm"
			}
			s := e.x.Add(lang.SurfDBTable, node, table, fw, conf)
			s.Method, s.Detail = "model", cls
			s.Def = e.x.F.DefAt(v.Start(name))
		}
	}
	if !isController {
		return
	}
	var pending []int
	for _, m := range v.Children(body) {
		switch v.Kind(m) {
		case "decorator":
			pending = append(pending, m)
			continue
		case "method_definition":
			decs := append(pending, e.decorators(m)...)
			mname := v.Child(m, "name")
			for _, d := range decs {
				c := e.decoratorCall(d)
				if c == nil {
					continue
				}
				method, ok := surface.HTTPMethod(c.Name)
				if !ok {
					if c.Name != "All" {
						continue
					}
					method = "ANY"
				}
				p := ""
				if s, ok := e.str(c.Arg(0)); ok {
					p = s
				} else if c.Arg(0) >= 0 {
					continue // a path built at run time
				}
				route := "/" + strings.Trim(surface.JoinRoute(controller, p), "/")
				s := e.x.Add(lang.SurfEndpoint, d, route, "nestjs", lang.ConfHigh)
				s.Method = method
				if mname >= 0 {
					s.Detail = cls + "." + v.Text(mname)
					s.Def = e.x.F.DefAt(v.Start(mname))
				}
			}
		}
		pending = nil
	}
}

// decorators lists the decorator children of a node.
func (e *esSurf) decorators(n int) []int {
	var out []int
	for _, c := range e.v.Children(n) {
		if e.v.Kind(c) == "decorator" {
			out = append(out, c)
		}
	}
	return out
}

// decoratorCall normalises @Name(...) and @Name.
func (e *esSurf) decoratorCall(d int) *surface.Call {
	kids := e.v.Children(d)
	if len(kids) == 0 {
		return nil
	}
	switch e.v.Kind(kids[0]) {
	case "call_expression":
		return e.toCall(kids[0])
	case "identifier":
		return &surface.Call{Node: kids[0], Name: e.v.Text(kids[0])}
	}
	return nil
}

// providers records the entries of a providers: [...] array.
func (e *esSurf) providers(arr, className int) {
	v := e.v
	if v.Kind(arr) != "array" {
		return
	}
	fw := "nestjs"
	if e.x.Imports("@angular/core") {
		fw = "angular"
	}
	for _, p := range v.Children(arr) {
		switch v.Kind(p) {
		case "identifier", "member_expression":
			s := e.x.Add(lang.SurfDI, p, v.Text(p), fw, lang.ConfHigh)
			s.Method = "provider"
			s.Def = e.x.F.DefAt(v.Start(className))
		case "object":
			ps := e.pairs(p)
			prov, ok := ps["provide"]
			if !ok {
				continue
			}
			token := v.Text(prov)
			if t, ok := e.str(prov); ok {
				token = t
			}
			s := e.x.Add(lang.SurfDI, prov, token, fw, lang.ConfHigh)
			s.Method = "provider"
			s.Def = e.x.F.DefAt(v.Start(className))
			for _, k := range []string{"useClass", "useExisting", "useFactory", "useValue"} {
				if u, ok := ps[k]; ok {
					s.Detail = k + " " + e.x.Expr(u)
					break
				}
			}
		}
	}
}

// export records Next.js route handlers: exported functions named after HTTP
// methods (app router route files) and the default export (pages/api). The
// route is the file's path, filled in at query time; elsewhere they are void.
func (e *esSurf) export(n int) {
	v := e.v
	if decl := v.Child(n, "declaration"); decl >= 0 {
		switch v.Kind(decl) {
		case "function_declaration", "generator_function_declaration":
			e.nextHandler(v.Child(decl, "name"))
		case "lexical_declaration", "variable_declaration":
			for _, d := range v.Children(decl) {
				if v.Kind(d) == "variable_declarator" {
					e.nextHandler(v.Child(d, "name"))
				}
			}
		}
		if t := v.Text(n); !strings.HasPrefix(t, "export default") {
			return
		}
	}
	if !strings.HasPrefix(v.Text(n), "export default") {
		return
	}
	target := v.Child(n, "value")
	if target < 0 {
		target = v.Child(n, "declaration")
	}
	if target < 0 {
		return
	}
	switch v.Kind(target) {
	case "function_declaration", "function_expression", "arrow_function", "function", "identifier", "call_expression":
	default:
		return
	}
	if params := v.Child(target, "parameters"); params >= 0 && len(v.Children(params)) != 2 {
		return // an API route handler takes (req, res)
	}
	s := e.x.Add(lang.SurfEndpoint, target, "", "nextjs", lang.ConfHigh)
	s.Method, s.Flags = "ANY", lang.SurfPathRoute
	if nm := v.Child(target, "name"); nm >= 0 {
		s.Detail = v.Text(nm)
		s.Def = e.x.F.DefAt(v.Start(nm))
	} else if v.Kind(target) == "identifier" || v.Kind(target) == "call_expression" {
		s.Detail = e.x.Expr(target)
	}
}

func (e *esSurf) nextHandler(name int) {
	if name < 0 || e.v.Kind(name) != "identifier" {
		return
	}
	t := e.v.Text(name)
	m, ok := surface.HTTPMethod(t)
	if !ok || t != m {
		return
	}
	s := e.x.Add(lang.SurfEndpoint, name, "", "nextjs", lang.ConfHigh)
	s.Method, s.Flags, s.Detail = m, lang.SurfPathRoute, t
}
