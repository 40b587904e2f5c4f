package agentbench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"

	"github.com/cairnhq/cairn/bench/precision"
)

// SrcPool is what a language's own parser says about a TypeScript or
// Python repository (the TypeScript compiler API, Python's ast): the
// candidates questions are drawn from, and the import edges (module
// resolution is the compiler's, for TypeScript; Python's import rules, for
// Python).
type SrcPool struct {
	Files []*SrcFile // sorted by path
	by    map[string]*SrcFile
}

// SrcFile is one parsed file. Positions are 1-based lines and 1-based byte
// columns.
type SrcFile struct {
	Path    string     `json:"path"`
	Module  string     `json:"module,omitempty"` // Python: dotted module name
	Classes []SrcClass `json:"classes"`
	Funcs   []SrcFunc  `json:"funcs"`
	Calls   []SrcName  `json:"calls"`
	// Imports are the repository files this file imports (resolved).
	Imports []string `json:"imports"`
}

// SrcName is a name at a position.
type SrcName struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// SrcClass is a class (or TypeScript interface) with the positions of the
// names in its heritage clause / bases.
type SrcClass struct {
	SrcName
	Interface bool      `json:"interface,omitempty"`
	Nested    bool      `json:"nested,omitempty"` // inside a function or another class: no dotted name reaches it
	Bases     []SrcName `json:"bases"`
}

// SrcFunc is a function or method with a body.
type SrcFunc struct {
	SrcName
	Class   string `json:"class,omitempty"`
	EndLine int    `json:"end_line"`
}

// File returns a file of the pool.
func (p *SrcPool) File(path string) *SrcFile { return p.by[path] }

// Importers is every file importing the given file.
func (p *SrcPool) Importers(path string) []string {
	var out []string
	for _, f := range p.Files {
		for _, im := range f.Imports {
			if im == path {
				out = append(out, f.Path)
				break
			}
		}
	}
	return out
}

// LoadSrcPool runs the language's dumper over root (under dir) and reads
// its answer. node is the directory holding node_modules/typescript.
func LoadSrcPool(lang, root, dir, node string) (*SrcPool, error) {
	var cmd *exec.Cmd
	switch lang {
	case "ts":
		cmd = exec.Command("node", "-e", tsDumper, root, dir)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(node, "node_modules"))
	case "py":
		cmd = exec.Command("python3", "-c", pyDumper, root, dir)
	default:
		return nil, fmt.Errorf("no pool for %s", lang)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s dumper: %w", lang, err)
	}
	var files []*SrcFile
	if err := json.Unmarshal(out, &files); err != nil {
		return nil, err
	}
	p := &SrcPool{Files: files, by: map[string]*SrcFile{}}
	fl := precision.NewFiles(root)
	for _, f := range files {
		if lang == "ts" {
			conv := func(n *SrcName) { n.Col = fl.ByteCol(f.Path, n.Line, n.Col-1) }
			for i := range f.Classes {
				conv(&f.Classes[i].SrcName)
				for j := range f.Classes[i].Bases {
					conv(&f.Classes[i].Bases[j])
				}
			}
			for i := range f.Funcs {
				conv(&f.Funcs[i].SrcName)
			}
			for i := range f.Calls {
				conv(&f.Calls[i])
			}
		}
		sort.Strings(f.Imports)
		p.by[f.Path] = f
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	return p, nil
}

// tsDumper: argv root dir. Parses every .ts file under root/dir with the
// TypeScript compiler API and resolves its imports with the project's
// tsconfig.json. Columns are 1-based UTF-16 units (converted to bytes by the
// caller).
const tsDumper = `
const ts = require("typescript");
const path = require("path");
const fs = require("fs");
const [root, dir] = process.argv.slice(1);
const cfgPath = path.join(root, "tsconfig.json");
const cfg = ts.readConfigFile(cfgPath, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root);
const opts = parsed.options;
const files = [];
function walk(d) {
  for (const e of fs.readdirSync(d, {withFileTypes: true})) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) { if (e.name !== "node_modules") walk(p); }
    else if (/\.(ts|tsx)$/.test(e.name)) files.push(p);
  }
}
walk(path.join(root, dir));
files.sort();
const out = [];
for (const abs of files) {
  const text = fs.readFileSync(abs, "utf8");
  const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
  const rel = path.relative(root, abs).split(path.sep).join("/");
  const pos = (node) => { const lc = sf.getLineAndCharacterOfPosition(node.getStart(sf)); return {line: lc.line + 1, col: lc.character + 1}; };
  const named = (id) => Object.assign({name: id.text}, pos(id));
  const f = {path: rel, classes: [], funcs: [], calls: [], imports: []};
  const lastName = (e) => {
    while (e) {
      if (ts.isIdentifier(e)) return e;
      if (ts.isPropertyAccessExpression(e)) return e.name;
      if (ts.isExpressionWithTypeArguments(e)) { e = e.expression; continue; }
      if (ts.isCallExpression(e)) { e = e.expression; continue; }
      return null;
    }
    return null;
  };
  const imp = (spec) => {
    const r = ts.resolveModuleName(spec, abs, opts, ts.sys);
    const m = r.resolvedModule;
    if (m && !m.isExternalLibraryImport) {
      const p = path.relative(root, m.resolvedFileName).split(path.sep).join("/");
      if (!p.startsWith("..")) f.imports.push(p);
    }
  };
  const visit = (n, cls) => {
    if ((ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n)) && n.name) {
      const c = Object.assign(named(n.name), {interface: ts.isInterfaceDeclaration(n), nested: !(n.parent && (ts.isSourceFile(n.parent) || ts.isModuleBlock(n.parent))), bases: []});
      for (const h of n.heritageClauses || []) for (const t of h.types) { const id = lastName(t); if (id) c.bases.push(named(id)); }
      f.classes.push(c);
      cls = n.name.text;
    }
    const top = n.parent && (ts.isSourceFile(n.parent) || ts.isModuleBlock(n.parent));
    const member = n.parent && ts.isClassDeclaration(n.parent) && n.parent.parent && ts.isSourceFile(n.parent.parent);
    if ((ts.isFunctionDeclaration(n) && top || ts.isMethodDeclaration(n) && member) && n.name && n.body && ts.isIdentifier(n.name)) {
      const fn = Object.assign(named(n.name), {end_line: sf.getLineAndCharacterOfPosition(n.end).line + 1});
      if (ts.isMethodDeclaration(n) && cls) fn.class = cls;
      f.funcs.push(fn);
    }
    if (ts.isCallExpression(n)) { const id = lastName(n.expression); if (id && (ts.isIdentifier(n.expression) || ts.isPropertyAccessExpression(n.expression))) f.calls.push(named(id)); }
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) imp(n.moduleSpecifier.text);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments.length && ts.isStringLiteral(n.arguments[0])) imp(n.arguments[0].text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) imp(n.argument.literal.text);
    ts.forEachChild(n, (c) => visit(c, ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) ? cls : (ts.isFunctionLike(n) ? cls : cls)));
  };
  visit(sf, "");
  f.imports = [...new Set(f.imports)];
  out.push(f);
}
process.stdout.write(JSON.stringify(out));
`

// pyDumper: argv root dir. Parses every .py file under root/dir with
// Python's ast and resolves its imports by Python's rules to files of the
// repository (a package is its __init__.py). Columns are 1-based bytes.
const pyDumper = `
import ast, json, os, sys
root, top = sys.argv[1], sys.argv[2]
paths = []
for d, dirs, files in os.walk(os.path.join(root, top)):
    dirs.sort()
    for n in sorted(files):
        if n.endswith(".py"):
            paths.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
mods = {}
for p in paths:
    m = p[:-3].replace("/", ".")
    if m.endswith(".__init__"):
        m = m[:-9]
    mods[m] = p
out = []
def name_pos(lines, lineno, col, kw, name):
    text = lines[lineno - 1].encode()
    i = text.find((kw + " " + name).encode(), col)
    if i < 0:
        return col + 1
    return i + len(kw) + 2
for p in paths:
    src = open(os.path.join(root, p), "rb").read()
    try:
        tree = ast.parse(src)
    except SyntaxError:
        continue
    lines = src.decode("utf-8", "replace").split("\n")
    m = p[:-3].replace("/", ".")
    pkg = m[:-9] if m.endswith(".__init__") else m.rsplit(".", 1)[0]
    if m.endswith(".__init__"):
        m = m[:-9]
    f = {"path": p, "module": m, "classes": [], "funcs": [], "calls": [], "imports": []}
    imps = set()
    def add(mod):
        if mod in mods:
            imps.add(mods[mod])
    def visit(n, cls, infunc=False):
        for c in ast.iter_child_nodes(n):
            if isinstance(c, ast.ClassDef):
                col = name_pos(lines, c.lineno, c.col_offset, "class", c.name)
                bases = []
                for b in c.bases:
                    e = b
                    if isinstance(e, ast.Subscript):
                        e = e.value
                    if isinstance(e, ast.Name):
                        bases.append({"name": e.id, "line": e.lineno, "col": e.col_offset + 1})
                    elif isinstance(e, ast.Attribute) and e.end_lineno == e.lineno:
                        bases.append({"name": e.attr, "line": e.end_lineno, "col": e.end_col_offset - len(e.attr) + 1})
                nested = infunc or bool(cls)
                f["classes"].append({"name": c.name, "line": c.lineno, "col": col, "bases": bases, "nested": nested})
                visit(c, "" if nested else c.name, nested)
                continue
            if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kw = "def"
                line = c.lineno
                col = name_pos(lines, line, c.col_offset, kw, c.name)
                fn = {"name": c.name, "line": line, "col": col, "end_line": c.end_lineno}
                if cls:
                    fn["class"] = cls
                if not infunc:
                    f["funcs"].append(fn)
                visit(c, "", True)
                continue
            if isinstance(c, ast.Call):
                e = c.func
                if isinstance(e, ast.Name):
                    f["calls"].append({"name": e.id, "line": e.lineno, "col": e.col_offset + 1})
                elif isinstance(e, ast.Attribute) and e.end_lineno is not None:
                    seg = lines[e.end_lineno - 1].encode()
                    col = e.end_col_offset - len(e.attr.encode())
                    if seg[col:col + len(e.attr)] == e.attr.encode():
                        f["calls"].append({"name": e.attr, "line": e.end_lineno, "col": col + 1})
            if isinstance(c, ast.Import):
                for a in c.names:
                    add(a.name)
            if isinstance(c, ast.ImportFrom):
                base = c.module or ""
                if c.level:
                    parts = pkg.split(".")
                    up = parts[:len(parts) - (c.level - 1)] if c.level > 1 else parts
                    base = ".".join(up + ([c.module] if c.module else []))
                add(base)
                for a in c.names:
                    add(base + "." + a.name)
            visit(c, cls, infunc)
    visit(tree, "")
    f["imports"] = sorted(imps - {p})
    out.append(f)
sys.stdout.write(json.dumps(out))
`
