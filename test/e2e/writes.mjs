// End-to-end check of Cairn's writes over MCP with the official TypeScript
// client. Run by test/e2e/e2e_test.go:
//
//   node writes.mjs <cairn binary> mcp --repo <repo>
//
// CAIRN_E2E_REPO is the repository's absolute root (the Demo module of
// internal/testenv). The script reads a file, edits it guarded by the hash
// it read, sees the edit in the next search without a reindex, is refused a
// write from a stale hash, undoes the write, previews and applies a rename
// proven to build, and prints one JSON line describing what it saw; it exits
// non-zero at the first check that fails.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const repo = process.env.CAIRN_E2E_REPO;
assert.ok(repo, "CAIRN_E2E_REPO is not set");
const onDisk = (p) => readFileSync(join(repo, p), "utf8");

const client = new Client({ name: "cairn-e2e-writes", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" }));
const seen = {};

// call returns the envelope of a tool call; ok says whether it must succeed.
async function call(name, args, ok = true) {
  const r = await client.callTool({ name, arguments: args });
  const env = JSON.parse(r.content[0].text);
  assert.deepEqual(env, r.structuredContent, `${name}: text and structured content differ`);
  assert.equal(Boolean(r.isError), !ok, `${name}: ${r.content[0].text}`);
  return env;
}

// The write tools are in the default profile.
const { tools } = await client.listTools();
for (const name of ["write_source", "edit_undo", "refactor_rename", "refactor_apply"]) {
  assert.ok(tools.some((t) => t.name === name), `tools/list lacks ${name}`);
}

// Wait for the first index, then read the lines to change and their hash.
let read;
for (let i = 0; i < 100; i++) {
  const r = await client.callTool({ name: "read_source", arguments: { path: "server/server.go", start_line: 1, end_line: 20 } });
  read = JSON.parse(r.content[0].text);
  if (!r.isError) break;
  await new Promise((res) => setTimeout(res, 200));
}
const sha = read.data.file_sha256;
assert.match(sha, /^[0-9a-f]{64}$/);
const listenLine = read.data.lines.find((l) => l.text.startsWith("func listen(")).n;

// A dry run shows the diff and writes nothing.
const edit = {
  path: "server/server.go",
  action: "update",
  expected_sha256: sha,
  spans: [{ start_line: listenLine, expected: "func listen(addr string) error { return nil }", new_text: "func listen(addr string) error { return serveOn(addr) }\n\nfunc serveOn(addr string) error { return nil }" }],
};
const before = onDisk("server/server.go");
const dry = await call("write_source", { edits: [edit], dry_run: true });
assert.equal(dry.data.applied, false);
assert.match(dry.data.diff, /\+func serveOn\(addr string\) error/);
assert.equal(onDisk("server/server.go"), before, "a dry run wrote the file");

// The write lands, and the next search sees it without a reindex.
const wrote = await call("write_source", { edits: [edit] });
assert.equal(wrote.data.applied, true);
assert.equal(wrote.data.files[0].old_sha256, sha);
seen.batch = wrote.data.batch_id;
assert.ok(onDisk("server/server.go").includes("func serveOn(addr string) error"));
const found = await call("search", { query: "serveOn", mode: "symbol" });
seen.found_after_write = found.data.results.map((h) => h.location.path);
assert.ok(seen.found_after_write.includes("server/server.go"), "search does not see the write");

// The same edit again, from the hash read before the write: CONFLICT.
const stale = await call("write_source", { edits: [edit] }, false);
seen.stale_code = stale.error.code;
assert.equal(seen.stale_code, "CONFLICT");

// A path outside the repository is refused.
const outside = await call("write_source", { edits: [{ path: "../escape.txt", action: "create", content: "x\n" }] }, false);
seen.outside_code = outside.error.code;
assert.notEqual(outside.error.code, undefined);

// Undo restores the file byte for byte.
await call("edit_undo", {});
assert.equal(onDisk("server/server.go"), before, "edit_undo did not restore the file");

// A rename: the plan first (nothing written), then applied and proven to build.
const plan = await call("refactor_rename", { symbol: "server.NewServer", new_name: "Open" });
seen.plan_status = plan.data.status;
assert.equal(plan.data.status, "ready");
assert.ok(plan.data.counts, "the plan has no counts");
assert.ok(onDisk("main.go").includes("server.NewServer("), "planning wrote a file");
const applied = await call("refactor_apply", { refactor_id: plan.data.refactor_id, verify: "build", timeout_ms: 120000 });
assert.equal(applied.data.applied, true);
seen.verify = applied.data.verify.checks.map((c) => `${c.language}:${c.ok}`);
assert.equal(applied.data.verify.ok, true, `the build proof failed: ${JSON.stringify(applied.data.verify)}`);
assert.ok(applied.data.verify.checks.some((c) => c.language === "go" && c.ok && !c.skipped), "go build did not run");
assert.ok(onDisk("main.go").includes("server.Open("), "main.go was not renamed");
assert.ok(onDisk("server/server.go").includes("func Open(addr string) *Server"), "the declaration was not renamed");
const renamed = await call("search", { query: "Open", mode: "symbol" });
assert.ok(renamed.data.results.some((h) => h.location.path === "server/server.go"), "search does not see the rename");

await client.close();
console.log(JSON.stringify({ ok: true, ...seen }));
