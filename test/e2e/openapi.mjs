// Checks the OpenAPI document of `cairn up` as a client author would use
// it. Run by ops_test.go:
//
//   node openapi.mjs <openapi.json> <work dir>      (CAIRN_URL, CAIRN_TOKEN)
//
// It validates the document with @apidevtools/swagger-parser, generates
// TypeScript types from it with openapi-typescript, type-checks and
// compiles tsclient/client.ts against them with tsc, and runs the compiled
// client, which calls search over REST; it prints one JSON line.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";

const [docPath, work] = process.argv.slice(2);
const seen = {};
const api = await SwaggerParser.validate(docPath);
seen.openapi = api.openapi;
seen.operations = Object.keys(api.paths).length;

const ast = await openapiTS(JSON.parse(readFileSync(docPath, "utf8")));
writeFileSync(join(work, "cairn-api.d.ts"), astToString(ast));
copyFileSync(new URL("./tsclient/client.ts", import.meta.url), join(work, "client.ts"));
const tsc = new URL("./node_modules/typescript/bin/tsc", import.meta.url).pathname;
execFileSync(process.execPath, [tsc, "--strict", "--target", "es2022", "--module", "es2022", "--moduleResolution", "bundler",
  "--lib", "es2022,dom", "--outDir", join(work, "out"), join(work, "client.ts")], { stdio: "inherit" });
writeFileSync(join(work, "out", "package.json"), '{"type": "module"}\n');
const out = execFileSync(process.execPath, [join(work, "out", "client.js")], { encoding: "utf8" });
seen.client = JSON.parse(out);
assert.ok(seen.client.paths.length > 0, "search found nothing");
seen.ok = true;
console.log(JSON.stringify(seen));
