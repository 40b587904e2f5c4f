package csharp

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Surfaces finds C#'s surfaces:
//   - endpoints: ASP.NET attribute routes ([Route] on the controller joined
//     with [HttpGet("...")] / [Route] on actions, [controller] and [action]
//     replaced) and minimal APIs (MapGet/MapPost/.../MapMethods/Map, with the
//     prefixes of MapGroup variables and chains);
//   - config keys: IConfiguration["A:B"], GetValue<T>("k"), GetSection("k"),
//     GetConnectionString("n"), Environment.GetEnvironmentVariable("X");
//   - DB tables: SQL in strings (FromSqlRaw included), EF DbSet<T> properties
//     (the property name, by convention), [Table("t")], ToTable("t");
//   - DI: services.AddScoped/AddTransient/AddSingleton<I, T>() (and TryAdd,
//     typeof forms), AddHostedService, AddDbContext, AddHttpClient;
//   - exceptions: throw new X(...) and throw expressions;
//   - logs: ILogger LogInformation/LogError/..., Serilog Log.Information,
//     NLog logger.Info.
func Surfaces(v *lang.View, f *lang.Facts) []lang.Surface {
	c := &csSurf{x: surface.NewFinder(v, f), v: v}
	c.strs = surface.NewStrings(c.x, c.literal, "binary_expression")
	return c.x.Walk(c.strs, map[string]func(int){
		"class_declaration":         c.class,
		"record_declaration":        c.class,
		"invocation_expression":     c.call,
		"element_access_expression": c.elementAccess,
		"throw_statement":           c.throw,
		"throw_expression":          c.throw,
	})
}

type csSurf struct {
	x        *surface.Finder
	v        *lang.View
	strs     *surface.Strings
	prefixes surface.Prefixes // var g = app.MapGroup("/p")
}

// literal reads regular, verbatim, raw and interpolated strings.
func (c *csSurf) literal(n int) (string, bool, bool) {
	v := c.v
	switch v.Kind(n) {
	case "string_literal":
		return surface.Pieces(v, n, "", "string_literal_content", "escape_sequence"), true, false
	case "verbatim_string_literal":
		t := strings.TrimPrefix(v.Text(n), "@")
		return strings.ReplaceAll(lang.Unquote(t), `""`, `"`), true, false
	case "raw_string_literal":
		if k := v.ChildOfKind(n, "raw_string_content"); k >= 0 {
			return v.Text(k), true, false
		}
		return "", true, false
	case "interpolated_string_expression":
		return surface.Pieces(v, n, "interpolation", "string_content", "escape_sequence"), true, true
	}
	return "", false, false
}

func (c *csSurf) str(n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	s, ok, built := c.literal(n)
	return s, ok && !built
}

// template is a string as written, for log messages ({Name} placeholders
// of structured logging stay).
func (c *csSurf) template(n int) (string, bool, bool) {
	if c.v.Kind(n) == "interpolated_string_expression" {
		t := c.v.Text(n)
		t = strings.TrimLeft(t, "$@")
		return lang.Unquote(t), true, true
	}
	return c.literal(n)
}

// args lists an argument list's expressions and named arguments.
func (c *csSurf) args(list int) (pos []int, named []surface.Named) {
	v := c.v
	if list < 0 {
		return nil, nil
	}
	for _, a := range v.Children(list) {
		switch v.Kind(a) {
		case "argument", "attribute_argument":
		default:
			continue
		}
		var name string
		expr := -1
		for _, k := range v.Children(a) {
			if v.Field(k) == "name" {
				name = v.Text(k)
				continue
			}
			if v.Kind(k) == "name_equals" || v.Kind(k) == "name_colon" {
				if id := v.ChildOfKind(k, "identifier"); id >= 0 {
					name = v.Text(id)
				}
				continue
			}
			if expr < 0 {
				expr = k
			}
		}
		if expr < 0 {
			continue
		}
		if name != "" {
			named = append(named, surface.Named{Name: name, Node: expr})
		} else {
			pos = append(pos, expr)
		}
	}
	return pos, named
}

// toCall normalises an invocation.
func (c *csSurf) toCall(n int) *surface.Call {
	v := c.v
	fn := v.Child(n, "function")
	if fn < 0 {
		return nil
	}
	call := &surface.Call{Node: n}
	name := fn
	if v.Kind(fn) == "member_access_expression" {
		name = v.Child(fn, "name")
		if e := v.Child(fn, "expression"); e >= 0 {
			call.Recv = v.Head(e, surface.MaxRecv)
		}
	}
	switch v.Kind(name) {
	case "identifier":
		call.Name = v.Text(name)
	case "generic_name":
		if id := v.ChildOfKind(name, "identifier"); id >= 0 {
			call.Name = v.Text(id)
		}
		if tl := v.ChildOfKind(name, "type_argument_list"); tl >= 0 {
			for _, t := range v.Children(tl) {
				call.TypeArgs = append(call.TypeArgs, v.Text(t))
			}
		}
	default:
		return nil
	}
	call.Args, call.Named = c.args(v.Child(n, "arguments"))
	return call
}

var mapMethods = map[string]string{"MapGet": "GET", "MapPost": "POST", "MapPut": "PUT", "MapDelete": "DELETE",
	"MapPatch": "PATCH", "Map": "ANY", "MapMethods": ""}

var lifetimes = map[string]string{"AddScoped": "scoped", "AddTransient": "transient", "AddSingleton": "singleton",
	"TryAddScoped": "scoped", "TryAddTransient": "transient", "TryAddSingleton": "singleton",
	"AddKeyedScoped": "scoped", "AddKeyedTransient": "transient", "AddKeyedSingleton": "singleton",
	"AddHostedService": "hosted", "AddDbContext": "dbcontext", "AddDbContextPool": "dbcontext",
	"AddHttpClient": "httpclient"}

func (c *csSurf) call(n int) {
	call := c.toCall(n)
	if call == nil || call.Name == "" {
		return
	}
	lower := strings.ToLower(call.Recv)
	switch {
	case call.Name == "MapGroup":
		c.group(call)
	case mapMethods[call.Name] != "" || call.Name == "MapMethods":
		c.mapRoute(call)
	case call.Name == "GetEnvironmentVariable" && strings.HasSuffix(call.Recv, "Environment"):
		c.x.Key(call.Arg(0), c.str, "env", "GetEnvironmentVariable")
	case (call.Name == "GetValue" || call.Name == "GetSection" || call.Name == "GetRequiredSection") && strings.Contains(lower, "config"):
		c.x.Key(call.Arg(0), c.str, "aspnet", call.Name)
	case call.Name == "GetConnectionString":
		if k, ok := c.str(call.Arg(0)); ok {
			s := c.x.Add(lang.SurfConfigKey, call.Arg(0), "ConnectionStrings:"+k, "aspnet", lang.ConfHigh)
			s.Method = call.Name
		}
	case call.Name == "ToTable":
		if t, ok := c.str(call.Arg(0)); ok {
			if sch, ok := c.str(call.Arg(1)); ok {
				t = sch + "." + t
			}
			s := c.x.Add(lang.SurfDBTable, call.Arg(0), t, "ef", lang.ConfHigh)
			s.Method, s.Detail = "model", c.entityOf(call)
		}
	case lifetimes[call.Name] != "":
		c.register(call)
	default:
		if level, ok := surface.DotnetLogLevel(call.Name); ok && call.Recv != "" && surface.LoggerLike(call.Recv) {
			c.log(call, level)
		}
	}
}

// entityOf is T of a modelBuilder.Entity<T>() below a chained call.
func (c *csSurf) entityOf(call *surface.Call) string {
	v := c.v
	fn := v.Child(call.Node, "function")
	for depth := 0; depth < 6 && v.Kind(fn) == "member_access_expression"; depth++ {
		e := v.Child(fn, "expression")
		if v.Kind(e) != "invocation_expression" {
			return ""
		}
		inner := c.toCall(e)
		if inner != nil && inner.Name == "Entity" && len(inner.TypeArgs) == 1 {
			return inner.TypeArgs[0]
		}
		fn = v.Child(e, "function")
	}
	return ""
}

// register records a DI registration.
func (c *csSurf) register(call *surface.Call) {
	var service, impl string
	switch {
	case len(call.TypeArgs) > 0:
		service = call.TypeArgs[0]
		if len(call.TypeArgs) > 1 {
			impl = call.TypeArgs[1]
		}
	case len(call.Args) > 0 && c.v.Kind(call.Args[0]) == "typeof_expression":
		service = c.v.Text(c.v.Child(call.Args[0], "type"))
		if len(call.Args) > 1 && c.v.Kind(call.Args[1]) == "typeof_expression" {
			impl = c.v.Text(c.v.Child(call.Args[1], "type"))
		}
	default:
		return
	}
	s := c.x.Add(lang.SurfDI, call.Node, service, "aspnet", lang.ConfHigh)
	s.Method, s.Detail = lifetimes[call.Name], impl
}

// group records var g = app.MapGroup("/p").
func (c *csSurf) group(call *surface.Call) {
	v := c.v
	p, ok := c.str(call.Arg(0))
	if !ok {
		return
	}
	full := surface.JoinRoute(c.prefixOf(call.Recv, call.Node, 0), p)
	d := v.Parent(call.Node)
	if v.Kind(d) != "variable_declarator" {
		return
	}
	name := v.Child(d, "name")
	if name < 0 {
		return
	}
	start, end := surface.PrefixSpan(v, d, "method_declaration", "local_function_statement", "lambda_expression")
	c.prefixes = append(c.prefixes, surface.Prefix{Name: v.Text(name), Path: full, Start: start, End: end})
}

// prefixOf is the route prefix of a receiver: a MapGroup variable in scope,
// or a MapGroup("/p") call it is chained on. depth counts the chained calls
// followed so far: past lang.MaxNesting the rest of the chain is not read (each
// call of a chain is a receiver of its own, so reading all of it every time
// would cost the square of the chain).
func (c *csSurf) prefixOf(recv string, at, depth int) string {
	v := c.v
	pos, _ := v.Bytes(at)
	if p := c.prefixes.Of(recv, pos); p != "" {
		return p
	}
	fn := v.Child(at, "function")
	if v.Kind(fn) != "member_access_expression" || depth >= lang.MaxNesting {
		return ""
	}
	e := v.Child(fn, "expression")
	if v.Kind(e) != "invocation_expression" {
		return ""
	}
	inner := c.toCall(e)
	if inner == nil || inner.Name != "MapGroup" {
		return ""
	}
	p, ok := c.str(inner.Arg(0))
	if !ok {
		return ""
	}
	return surface.JoinRoute(c.prefixOf(inner.Recv, e, depth+1), p)
}

// mapRoute records app.MapGet("/p", handler) and friends.
func (c *csSurf) mapRoute(call *surface.Call) {
	if len(call.Args) < 2 {
		return
	}
	method := mapMethods[call.Name]
	handler := call.Args[len(call.Args)-1]
	if call.Name == "MapMethods" {
		if len(call.Args) < 3 {
			return
		}
		var ms []string
		c.v.Descendants(call.Args[1], func(j int) {
			if s, ok := c.str(j); ok {
				if m, ok := surface.HTTPMethod(s); ok {
					ms = append(ms, m)
				}
			}
		})
		method = "ANY"
		if len(ms) > 0 {
			method = strings.Join(ms, ",")
		}
	}
	p, ok := c.str(call.Args[0])
	if !ok {
		s := c.x.Add(lang.SurfEndpoint, call.Args[0], c.x.Expr(call.Args[0]), "aspnet", lang.ConfLow)
		s.Method, s.Detail = method, c.x.Expr(handler)
		return
	}
	route := surface.JoinRoute(c.prefixOf(call.Recv, call.Node, 0), p)
	if !strings.HasPrefix(route, "/") {
		route = "/" + route
	}
	s := c.x.Add(lang.SurfEndpoint, call.Args[0], route, "aspnet", lang.ConfHigh)
	s.Method, s.Detail = method, c.x.Expr(handler)
}

// elementAccess records configuration["A:B"].
func (c *csSurf) elementAccess(n int) {
	v := c.v
	e := v.Child(n, "expression")
	if e < 0 {
		return
	}
	l := strings.ToLower(v.Text(e))
	if i := strings.LastIndexByte(l, '.'); i >= 0 {
		l = l[i+1:]
	}
	if !strings.Contains(l, "config") {
		return
	}
	args, _ := c.args(v.Child(n, "subscript"))
	if len(args) != 1 {
		return
	}
	c.x.Key(args[0], c.str, "aspnet", "indexer")
}

func (c *csSurf) log(call *surface.Call, level string) {
	args := call.Args
	if len(args) == 0 {
		return
	}
	fw := "ilogger"
	switch {
	case call.RecvRoot() == "Log":
		fw = "serilog"
	case !strings.HasPrefix(call.Name, "Log"):
		fw = "nlog"
	}
	c.x.Log(args[:min(len(args), 3)], c.template, args[0], fw, level)
}

// throw records throw new X(...), throw e and throw expressions.
func (c *csSurf) throw(n int) {
	c.x.Throw(n, "dotnet", []string{"identifier", "member_access_expression", "invocation_expression"}, func(list int) string {
		args, _ := c.args(list)
		if len(args) == 0 {
			return ""
		}
		msg, _, _ := c.template(args[0])
		return msg
	})
}

// attribute is an attribute's name and arguments.
type attribute struct {
	node  int
	name  string
	args  []int
	named []surface.Named
}

// attributes lists the attributes of a declaration.
func (c *csSurf) attributes(decl int) []attribute {
	v := c.v
	var out []attribute
	for _, l := range v.Children(decl) {
		if v.Kind(l) != "attribute_list" {
			continue
		}
		for _, a := range v.Children(l) {
			if v.Kind(a) != "attribute" {
				continue
			}
			nm := v.Child(a, "name")
			if nm < 0 {
				continue
			}
			at := attribute{node: a, name: strings.TrimSuffix(surface.LastName(v.Text(nm)), "Attribute")}
			at.args, at.named = c.args(v.ChildOfKind(a, "attribute_argument_list"))
			out = append(out, at)
		}
	}
	return out
}

var httpAttrs = map[string]string{"HttpGet": "GET", "HttpPost": "POST", "HttpPut": "PUT", "HttpDelete": "DELETE",
	"HttpPatch": "PATCH", "HttpHead": "HEAD", "HttpOptions": "OPTIONS"}

// class handles controllers' attribute routes, [Table] and DbSet<T>.
func (c *csSurf) class(n int) {
	v := c.v
	name, body, ok := surface.Class(v, n)
	if !ok {
		return
	}
	cls := v.Text(name)
	var prefixes []string
	for _, a := range c.attributes(n) {
		switch a.name {
		case "Route":
			if len(a.args) > 0 {
				if p, ok := c.str(a.args[0]); ok {
					prefixes = append(prefixes, p)
				}
			}
		case "Table":
			if len(a.args) > 0 {
				if t, ok := c.str(a.args[0]); ok {
					for _, na := range a.named {
						if na.Name == "Schema" {
							if sch, ok := c.str(na.Node); ok {
								t = sch + "." + t
							}
						}
					}
					s := c.x.Add(lang.SurfDBTable, a.args[0], t, "ef", lang.ConfHigh)
					s.Method, s.Detail = "model", cls
				}
			}
		}
	}
	controller := strings.TrimSuffix(cls, "Controller")
	for _, m := range v.Children(body) {
		switch v.Kind(m) {
		case "property_declaration":
			c.dbSet(m)
		case "method_declaration":
			c.action(m, cls, controller, prefixes)
		}
	}
}

// dbSet records DbSet<T> Name { get; set; }: EF maps it to table Name by convention.
func (c *csSurf) dbSet(m int) {
	v := c.v
	t := v.Child(m, "type")
	nm := v.Child(m, "name")
	if t < 0 || nm < 0 || v.Kind(t) != "generic_name" {
		return
	}
	id := v.ChildOfKind(t, "identifier")
	if id < 0 || v.Text(id) != "DbSet" {
		return
	}
	entity := ""
	if tl := v.ChildOfKind(t, "type_argument_list"); tl >= 0 {
		if kids := v.Children(tl); len(kids) == 1 {
			entity = v.Text(kids[0])
		}
	}
	s := c.x.Add(lang.SurfDBTable, nm, v.Text(nm), "ef", lang.ConfLow)
	s.Method, s.Detail = "dbset", entity
}

// action records the routes of a controller action.
func (c *csSurf) action(m int, cls, controller string, prefixes []string) {
	v := c.v
	mname := v.Child(m, "name")
	if mname < 0 {
		return
	}
	action := v.Text(mname)
	var methods []string
	var templates []string
	var nodes []int
	hasHTTP := false
	for _, a := range c.attributes(m) {
		if hm, ok := httpAttrs[a.name]; ok {
			hasHTTP = true
			methods = append(methods, hm)
			if len(a.args) > 0 {
				if p, ok := c.str(a.args[0]); ok {
					templates = append(templates, p)
					nodes = append(nodes, a.node)
				}
			}
		}
		if a.name == "Route" && len(a.args) > 0 {
			if p, ok := c.str(a.args[0]); ok {
				templates = append(templates, p)
				nodes = append(nodes, a.node)
			}
		}
	}
	if !hasHTTP && len(templates) == 0 {
		return
	}
	if len(prefixes) == 0 && len(templates) == 0 {
		return // conventional routing: the route table decides
	}
	method := "ANY"
	if len(methods) > 0 {
		method = strings.Join(methods, ",")
	}
	node := m
	if len(nodes) > 0 {
		node = nodes[0]
	} else if attrs := c.attributes(m); len(attrs) > 0 {
		node = attrs[0].node
	}
	if len(templates) == 0 {
		templates = []string{""}
	}
	if len(prefixes) == 0 {
		prefixes = []string{""}
	}
	for _, t := range templates {
		bases := prefixes
		if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~/") {
			bases = []string{""} // an absolute action template ignores the controller's
			t = strings.TrimPrefix(t, "~")
		}
		for _, pre := range bases {
			route := surface.JoinRoute(pre, t)
			route = strings.NewReplacer("[controller]", controller, "[action]", action).Replace(route)
			if !strings.HasPrefix(route, "/") {
				route = "/" + route
			}
			s := c.x.Add(lang.SurfEndpoint, node, route, "aspnet", lang.ConfHigh)
			s.Method, s.Detail = method, cls+"."+action
			s.Def = c.x.F.DefAt(v.Start(mname))
		}
	}
}
