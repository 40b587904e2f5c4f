// Lists the declarations of a TypeScript project's own sources (not its
// node_modules, not .d.ts files) as JSON lines, with the TypeScript
// compiler's parser: {path, line, char (0-based, UTF-16), name, kind}.
//   usage: node tsdecls.js PROJECT_DIR   (typescript from the project's node_modules)
const path = require('path');
const root = path.resolve(process.argv[2]);
const ts = require(require.resolve('typescript', { paths: [root] }));
const cfg = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} });
const out = [];
for (const file of cfg.fileNames) {
  if (file.includes('/node_modules/') || file.endsWith('.d.ts')) continue;
  const text = ts.sys.readFile(file);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const emit = (name, kind) => {
    if (!name || !ts.isIdentifier(name)) return;
    const p = sf.getLineAndCharacterOfPosition(name.getStart(sf));
    out.push(JSON.stringify({ path: path.relative(root, file), line: p.line, char: p.character, name: name.text, kind }));
  };
  const visit = (node, top) => {
    if (ts.isFunctionDeclaration(node) && top) emit(node.name, 'function');
    else if (ts.isClassDeclaration(node)) {
      emit(node.name, 'class');
      for (const m of node.members) {
        if (ts.isMethodDeclaration(m)) emit(m.name, 'method');
        else if (ts.isPropertyDeclaration(m)) emit(m.name, 'property');
      }
    } else if (ts.isInterfaceDeclaration(node)) {
      emit(node.name, 'interface');
      for (const m of node.members) {
        if (ts.isPropertySignature(m) || ts.isMethodSignature(m)) emit(m.name, 'iface_member');
      }
    } else if (ts.isTypeAliasDeclaration(node)) emit(node.name, 'type_alias');
    else if (ts.isVariableStatement(node) && top) {
      for (const d of node.declarationList.declarations) emit(d.name, 'variable');
    }
    if (!top) return;
  };
  for (const s of sf.statements) visit(s, true);
}
process.stdout.write(out.join('\n') + '\n');
