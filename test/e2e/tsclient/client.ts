// A small REST client typed by the types openapi-typescript generates from
// Cairn's OpenAPI document (cairn-api.d.ts, written beside this file by
// openapi.mjs). If the document and the server drift apart, either tsc or
// the run below fails.
import type { paths } from "./cairn-api";

declare const process: { env: Record<string, string | undefined> };

type Op<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type Args<P extends keyof paths> = Op<P> extends { requestBody: { content: { "application/json": infer A } } } ? A : never;
type Reply<P extends keyof paths> = Op<P> extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;

async function call<P extends keyof paths>(path: P, args: Args<P>): Promise<Reply<P>> {
  const res = await fetch(`${process.env.CAIRN_URL}${String(path)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${process.env.CAIRN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`${String(path)}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Reply<P>;
}

const found = await call("/api/v1/tools/search", { query: "NewServer", mode: "lexical", limit: 5 });
const results = found.data?.results ?? [];
const paths: string[] = results.map((r) => r.location.path);
const answer: string = found.answer ?? "";
const epoch: number | undefined = found.provenance.epoch;
console.log(JSON.stringify({ answer, paths, epoch, request_id: found.meta.request_id }));
