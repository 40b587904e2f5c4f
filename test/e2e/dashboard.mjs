// Browser check of the dashboard served by `cairn up`. Run by ops_test.go:
//
//   node dashboard.mjs <base url> <token> <screenshot dir>
//
// It opens /dashboard/ in headless Chromium (Debian's, driven by
// playwright-core), makes calls over REST as a scripted client while the
// page refreshes, filters the operations by the task the client opened,
// takes a screenshot, and once the calls have stopped prints one JSON line:
// the numbers the page shows and the /metrics text at that moment.
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const [base, token, outDir] = process.argv.slice(2);
assert.ok(base && token && outDir, "usage: dashboard.mjs BASE TOKEN DIR");

const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
async function tool(name, args, task) {
  const h = task ? { ...headers, "X-Cairn-Task": task } : headers;
  const res = await fetch(`${base}/api/v1/tools/${name}`, { method: "POST", headers: h, body: JSON.stringify(args) });
  return { status: res.status, env: await res.json() };
}

const browser = await chromium.launch({
  executablePath: process.env.CAIRN_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const seen = {};
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1800 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${base}/dashboard/#token=${encodeURIComponent(token)}`);
  await page.waitForSelector("#conn.ok", { timeout: 15000 });
  assert.equal(await page.evaluate(() => location.hash), "", "the token stays in the address bar");

  // The scripted client: a task with reads, a write and a failing call,
  // and calls outside the task, while the page refreshes every second.
  const opened = await tool("task_open", { max_mutations: 5 });
  assert.equal(opened.status, 200, JSON.stringify(opened.env));
  const task = opened.env.meta.task_id;
  let calls = 1, inTask = 1;
  const queries = ["Handler", "Route", "Serve", "Config", "NewServer"];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const r = await tool("search", { query: q }, task);
      assert.equal(r.status, 200, JSON.stringify(r.env.error));
      calls++, inTask++;
    }
    const card = await tool("symbol_get", { symbol: `Handler${round}_7` }, task);
    assert.equal(card.status, 200, JSON.stringify(card.env.error));
    await tool("symbol_get", { symbol: "NoSuchSymbolAnywhere" }, task); // NOT_FOUND
    calls += 2, inTask += 2;
    await tool("status", {});
    calls++;
    await new Promise((r) => setTimeout(r, 300));
  }
  for (let i = 0; i < 2; i++) { // the first builds the impact views of this epoch, the second finds them cached
    const r = await tool("impact_analyze", { symbol: "NewServer" }, task);
    assert.equal(r.status, 200, JSON.stringify(r.env.error));
    calls++, inTask++;
  }
  const w = await tool("write_source", { edits: [{ path: "notes/todo.md", action: "create", content: "# todo\n" }] }, task);
  assert.equal(w.status, 200, JSON.stringify(w.env.error));
  calls++, inTask++;
  seen.calls = calls;
  seen.task_calls = inTask;
  seen.task = task;

  // Filter by the task: every operation listed is the task's, even when a
  // refresh asked for before the filter changed answers after the filtered
  // one. Refreshes are paused, one unfiltered request is held back and the
  // filter is set while it waits.
  await page.check("#pause");
  let held = 0;
  await page.route("**/api/v1/dashboard?*", async (route) => {
    if (!route.request().url().includes("task=")) {
      held++;
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue();
  });
  await page.evaluate(() => { load(); });
  await page.selectOption("#f-task", task);
  await page.waitForFunction(([n, t]) => document.getElementById("ops").dataset.task === t &&
    document.getElementById("matched").textContent === String(n), [inTask, task], { timeout: 15000 });
  const rows = await page.$$eval("#ops tbody tr", (trs) => trs.map((tr) => tr.dataset.task));
  assert.equal(rows.length, inTask);
  assert.ok(rows.every((t) => t === task), `rows of other tasks: ${rows}`);
  await page.waitForTimeout(2000); // the held refresh answers now
  assert.equal(held, 1, "one unfiltered refresh was held back");
  const late = await page.$$eval("#ops tbody tr", (trs) => trs.map((tr) => tr.dataset.task));
  assert.ok(late.length === inTask && late.every((t) => t === task), `a late unfiltered answer replaced the view: ${late}`);
  await page.unroute("**/api/v1/dashboard?*");
  await page.uncheck("#pause");
  assert.ok(await page.$eval(`#tasks tr[data-task="${task}"]`, (tr) => tr.classList.contains("selected")));
  seen.url = page.url();

  // Once the calls have stopped, the page settles on the final numbers.
  await page.waitForFunction((n) => document.getElementById("total-calls").dataset.value === String(n), calls, { timeout: 15000 });
  await page.waitForTimeout(1500); // one more refresh: nothing moves any more
  await page.screenshot({ path: `${outDir}/dashboard.png`, fullPage: true });
  seen.shown = await page.evaluate(() => {
    const num = (id) => Number(document.getElementById(id).dataset.value);
    const tools = {};
    for (const tr of document.querySelectorAll("#tools tbody tr")) {
      tools[tr.dataset.tool] = { calls: Number(tr.querySelector(".calls").textContent), errors: Number(tr.querySelector(".errors").textContent) };
    }
    const caches = {};
    for (const tr of document.querySelectorAll("#caches tbody tr")) {
      const n = (cls) => Number(tr.querySelector(cls).textContent.replace(/,/g, ""));
      caches[tr.dataset.cache] = { hits: n(".hits"), misses: n(".misses") };
    }
    return { calls: num("total-calls"), caches, errors: num("total-errors"), tokens: num("total-tokens"), saved: num("total-saved"), tools,
      index_state: document.getElementById("index-state").textContent,
      task_mutations: document.querySelector("#tasks tbody tr .mutations").textContent };
  });
  const metrics = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  seen.metrics = await metrics.text();
  seen.page_errors = pageErrors;
  seen.ok = true;
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
