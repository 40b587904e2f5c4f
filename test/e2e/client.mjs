// End-to-end check of Cairn's MCP transports with the official TypeScript
// client. Run by test/e2e/e2e_test.go:
//
//   node client.mjs stdio <cairn binary> mcp --repo <repo>
//   node client.mjs http <url of /mcp>          (bearer token in CAIRN_TOKEN)
//
// CAIRN_E2E_REPO is the repository's absolute root. The script connects,
// lists tools, calls status, search, a failing symbol_get and index_ensure
// with progress, reads a resource, and prints one JSON line describing what
// it saw; it exits non-zero at the first check that fails.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const repo = process.env.CAIRN_E2E_REPO;
assert.ok(repo, "CAIRN_E2E_REPO is not set");

let transport;
if (mode === "stdio") {
  const [command, ...args] = rest;
  transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });
} else if (mode === "http") {
  const token = process.env.CAIRN_TOKEN;
  assert.ok(token, "CAIRN_TOKEN is not set");
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
} else {
  console.error("usage: client.mjs stdio CMD ARGS... | client.mjs http URL");
  process.exit(2);
}

const seen = { mode };
const client = new Client({ name: "cairn-e2e", version: "1.0.0" });
const t0 = Date.now();
await client.connect(transport);
seen.server = client.getServerVersion()?.name;
assert.equal(seen.server, "cairn");
assert.ok((client.getInstructions() ?? "").includes("Cairn"), "no server instructions");

// The envelope is both structuredContent and the text of content[0].
function envelope(result, name) {
  assert.equal(result.content.length, 1, `${name}: one content block`);
  assert.equal(result.content[0].type, "text", `${name}: text content`);
  const fromText = JSON.parse(result.content[0].text);
  assert.deepEqual(fromText, result.structuredContent, `${name}: text and structured content differ`);
  return result.structuredContent;
}

// status answers at once, even while the first index builds.
const status = envelope(await client.callTool({ name: "status", arguments: {} }), "status");
seen.status_ms = Date.now() - t0;
assert.equal(status.data.repo, repo);
assert.ok(["indexing", "ready"].includes(status.data.index_state), `index_state ${status.data.index_state}`);

const { tools } = await client.listTools();
seen.tools = tools.map((t) => t.name).sort();
for (const name of ["status", "search", "symbol_get", "refs_find", "read_source"]) {
  assert.ok(seen.tools.includes(name), `tools/list lacks ${name}`);
}
for (const t of tools) {
  assert.equal(t.inputSchema.type, "object", `${t.name}: input schema type`);
  assert.ok(t.description, `${t.name}: no description`);
}
const search = tools.find((t) => t.name === "search");
assert.deepEqual(search.inputSchema.required, ["query"]);
assert.equal(search.inputSchema.properties.paths.type, "array");

// search, retried while the first index is still being built.
let found;
for (let i = 0; i < 50; i++) {
  const r = await client.callTool({ name: "search", arguments: { query: "NewServer" } });
  found = envelope(r, "search");
  if (!r.isError || found.error.code !== "INDEX_UNAVAILABLE") break;
  await new Promise((res) => setTimeout(res, 200));
}
assert.equal(found.error, undefined, `search failed: ${JSON.stringify(found.error)}`);
seen.search_paths = found.data.results.map((h) => h.location.path);
assert.ok(seen.search_paths.includes("server/server.go"), "search did not find server/server.go");
assert.ok(seen.search_paths.includes("main.go"), "search did not find main.go");

// A failed call is a tool result with isError, not a protocol error.
const missing = await client.callTool({ name: "symbol_get", arguments: { symbol: "NoSuchSymbol" } });
assert.equal(missing.isError, true);
seen.missing_code = envelope(missing, "symbol_get").error.code;
assert.equal(seen.missing_code, "NOT_FOUND");

// Long work reports progress to a caller that asks for it.
const progress = [];
const reindex = await client.callTool({ name: "index_ensure", arguments: { full: true } }, undefined, {
  onprogress: (p) => progress.push(p),
});
assert.ok(!reindex.isError, `index_ensure failed: ${reindex.content[0].text}`);
seen.progress = progress.length;
assert.ok(progress.length > 0, "no progress notifications");
for (let i = 1; i < progress.length; i++) {
  assert.ok(progress[i].progress > progress[i - 1].progress, "progress does not increase");
}

// Resources.
const res = await client.readResource({ uri: "cairn://status" });
assert.equal(res.contents[0].mimeType, "application/json");
assert.equal(JSON.parse(res.contents[0].text).data.repo, repo);
const file = await client.readResource({ uri: "cairn://file/server/server.go" });
seen.file_lines = JSON.parse(file.contents[0].text).data.lines.length;
assert.ok(seen.file_lines > 10);

await client.close();
console.log(JSON.stringify({ ok: true, ...seen }));
