// Cairn's dashboard: one request to /api/v1/dashboard per refresh, rendered
// into the page. The bearer token comes from the URL fragment (#token=...),
// which never reaches the server, or from the form; it is kept for the tab.
"use strict";

const $ = (id) => document.getElementById(id);
// asked and shown number the requests: a response older than one already
// rendered is dropped, so a refresh that was under way when a filter changed
// cannot put the unfiltered view back.
const state = { token: "", filters: { task: "", tool: "", outcome: "", since: "" }, timer: null, asked: 0, shown: 0 };

function readToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    sessionStorage.setItem("cairn-token", decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  state.token = sessionStorage.getItem("cairn-token") || "";
  const q = new URLSearchParams(location.search);
  for (const k of Object.keys(state.filters)) state.filters[k] = q.get(k) || "";
}

function text(v) { return v === undefined || v === null ? "" : String(v); }
function fmt(n) { return Number(n || 0).toLocaleString("en-US"); }
function ms(n) { return Number(n || 0).toFixed(n >= 100 ? 0 : 2); }
function ago(s) {
  if (!s && s !== 0) return "?";
  if (s < 60) return `${s.toFixed(0)} s ago`;
  if (s < 3600) return `${(s / 60).toFixed(0)} min ago`;
  return `${(s / 3600).toFixed(1)} h ago`;
}
function time(ts) { const d = new Date(ts); return isNaN(d) ? "" : d.toLocaleTimeString(); }

// el builds an element: el("td", {class: "num"}, "text", child...).
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(text(c)));
  return e;
}
function fill(tbody, rows) { tbody.replaceChildren(...rows); }

function query() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state.filters)) if (v) q.set(k, v);
  q.set("limit", "200");
  return q.toString();
}

async function load() {
  const seq = ++state.asked;
  const filters = { ...state.filters };
  let res;
  try {
    res = await fetch("/api/v1/dashboard?" + query(), { headers: state.token ? { Authorization: "Bearer " + state.token } : {} });
  } catch (e) {
    setConn("offline", "bad");
    return;
  }
  if (res.status === 401) {
    setConn("token needed", "warn");
    $("token-form").hidden = false;
    stop();
    return;
  }
  if (!res.ok) { setConn(`error ${res.status}`, "bad"); return; }
  $("token-form").hidden = true;
  setConn("live", "ok");
  const d = await res.json();
  if (seq < state.shown) return;
  state.shown = seq;
  render(d, filters);
}

function setConn(label, cls) { const c = $("conn"); c.textContent = label; c.className = "pill " + cls; }

// render shows one response; filters are those it was asked with, which the
// operations table carries as data attributes.
function render(d, filters) {
  document.body.dataset.generated = d.generated_at;
  $("updated").textContent = time(d.generated_at);
  $("repo").textContent = `${d.server.repo} · pid ${d.server.pid} · ${d.server.version} · up ${ago(d.server.uptime_s).replace(" ago", "")}`;
  $("total-calls").textContent = fmt(d.totals.calls);
  $("total-errors").textContent = fmt(d.errors);
  $("total-tokens").textContent = fmt(d.totals.tokens);
  $("total-saved").textContent = fmt(d.totals.tokens_saved);
  $("repo-saved").textContent = fmt(d.savings.repository.tokens_saved);
  for (const id of ["total-calls", "total-errors", "total-tokens", "total-saved"]) $(id).dataset.value = $(id).textContent.replace(/,/g, "");
  renderIndex(d.index, d.status);
  renderTools(d.tools, d.operations);
  renderTasks(d.tasks, d.savings.tasks);
  renderFilters(d);
  renderOps(d.operations, d.matched, filters);
  fill(document.querySelector("#errors tbody"), d.recent_errors.map((o) =>
    el("tr", {}, el("td", {}, time(o.ts)), el("td", {}, o.op_type), el("td", {}, o.error_code), el("td", {}, o.error_message || ""))));
  fill(document.querySelector("#caches tbody"), (d.caches || []).map((c) =>
    el("tr", { dataset: { cache: c.cache } }, el("td", {}, c.cache), el("td", { class: "num hits" }, fmt(c.hits)),
      el("td", { class: "num misses" }, fmt(c.misses)), el("td", { class: "num" }, c.hits + c.misses ? `${(100 * c.hit_ratio).toFixed(1)}%` : "–"))));
  fill(document.querySelector("#clients tbody"), d.savings.clients.map((c) =>
    el("tr", { dataset: { client: c.id } }, el("td", {}, c.name ? `${c.name} (${c.id})` : c.id), el("td", {}, c.transport),
      el("td", { class: "num" }, fmt(c.calls)), el("td", { class: "num" }, fmt(c.tokens)), el("td", { class: "num" }, fmt(c.tokens_saved)))));
}

function renderIndex(ix, st) {
  const s = $("index-state");
  s.textContent = ix.state || "?";
  s.className = "pill " + (ix.state || "");
  $("index-reason").textContent = ix.reason || "";
  $("index-epoch").textContent = ix.epoch;
  $("index-lag").textContent = ix.epoch_lag;
  $("index-age").textContent = ix.indexed_at ? `${ago(ix.age_s)} (${time(ix.indexed_at)})` : "never";
  $("index-files").textContent = fmt(ix.files);
  const fresh = st && st.pending_files ? `${st.pending_files} changed files not indexed yet` : "every change seen is indexed";
  $("index-fresh").textContent = ix.epoch_lag > 0 ? `${ix.epoch_lag} changes waiting` : fresh;
  const sem = (st && st.semantic) || { indexes: [], jobs: [] };
  fill($("semantic"), sem.indexes.map((x) => el("tr", {}, el("td", {}, `${x.tool} ${x.tool_version || ""}`),
    el("td", {}, (x.indexed_commit || "").slice(0, 12)), el("td", { class: "num" }, x.usable), el("td", { class: "num" }, x.changed),
    el("td", { class: "num" }, x.missing))));
  if (!sem.indexes.length) fill($("semantic"), [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "no SCIP index imported"))]);
  fill($("jobs"), sem.jobs.map((j) => el("tr", {}, el("td", {}, j.id), el("td", {}, j.indexer), el("td", {}, j.root),
    el("td", {}, `${j.status} ${j.progress || ""}${j.error || ""}`))));
  if (!sem.jobs.length) fill($("jobs"), [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "no jobs"))]);
}

function renderTools(tools, ops) {
  fill(document.querySelector("#tools tbody"), tools.map((t) => el("tr", { dataset: { tool: t.tool } },
    el("td", {}, el("button", { class: "link", type: "button", onclick: () => setFilter("tool", t.tool) }, t.tool)),
    el("td", { class: "num calls" }, t.calls), el("td", { class: "num errors" }, t.errors),
    el("td", { class: "num" }, ms(t.p50_ms)), el("td", { class: "num" }, ms(t.p95_ms)))));
  // The latest calls (up to 100) as bars, oldest on the left.
  const recent = ops.slice(0, 100).reverse();
  const svg = $("latency");
  const top = Math.max(1, ...recent.map((o) => o.duration_ms));
  $("lat-max").textContent = ms(top);
  const w = 400 / Math.max(recent.length, 1);
  svg.replaceChildren(...recent.map((o, i) => {
    const h = Math.max(1, (o.duration_ms / top) * 118);
    const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    r.setAttribute("x", i * w); r.setAttribute("width", Math.max(w - 1, 1)); r.setAttribute("y", 120 - h); r.setAttribute("height", h);
    if (!o.success) r.setAttribute("class", "err");
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = `${o.op_type} ${ms(o.duration_ms)} ms`;
    r.append(title);
    return r;
  }));
}

function renderTasks(tasks, saved) {
  const savedBy = Object.fromEntries(saved.map((s) => [s.task_id, s.tokens_saved]));
  fill(document.querySelector("#tasks tbody"), tasks.map((t) => el("tr", { dataset: { task: t.task_id }, class: state.filters.task === t.task_id ? "selected" : "" },
    el("td", {}, t.task_id), el("td", {}, el("span", { class: "pill " + t.state }, t.state)), el("td", {}, t.client || ""),
    el("td", { class: "num mutations" }, `${t.counters.mutations}/${t.limits.max_mutations}`),
    el("td", { class: "num" }, `${t.counters.test_runs}/${t.limits.max_test_runs}`),
    el("td", { class: "num" }, `${Math.round(t.counters.read_bytes / 1024)}/${Math.round(t.limits.max_read_bytes / 1024)}`),
    el("td", { class: "num" }, `${t.elapsed_s}/${t.limits.max_duration_s} s`),
    el("td", { class: "num noprogress" }, t.counters.no_progress), el("td", { class: "num" }, t.counters.refused),
    el("td", { class: "num" }, fmt(savedBy[t.task_id])),
    el("td", {}, el("button", { class: "link filter-task", type: "button", onclick: () => setFilter("task", t.task_id) }, "operations")))));
  if (!tasks.length) fill(document.querySelector("#tasks tbody"), [el("tr", {}, el("td", { colspan: 11, class: "muted" }, "no tasks: agents open them with task_open"))]);
}

function options(select, values) {
  const want = ["", ...values];
  const have = [...select.options].map((o) => o.value);
  if (want.join("\n") === have.join("\n")) return;
  const cur = select.value;
  select.replaceChildren(...want.map((v) => el("option", { value: v }, v || "any")));
  select.value = want.includes(cur) ? cur : "";
}

function renderFilters(d) {
  const tasks = d.tasks.map((t) => t.task_id);
  if (state.filters.task && !tasks.includes(state.filters.task)) tasks.push(state.filters.task);
  options($("f-task"), tasks);
  const tools = d.tools.map((t) => t.tool);
  if (state.filters.tool && !tools.includes(state.filters.tool)) tools.push(state.filters.tool);
  options($("f-tool"), tools);
  for (const k of Object.keys(state.filters)) $("f-" + k).value = state.filters[k];
}

function renderOps(ops, matched, filters) {
  Object.assign($("ops").dataset, filters);
  $("matched").textContent = matched;
  fill(document.querySelector("#ops tbody"), ops.map((o) => el("tr", { dataset: { task: o.task_id || "", tool: o.op_type, outcome: o.success ? "ok" : o.error_code } },
    el("td", {}, time(o.ts)), el("td", {}, o.op_type), el("td", {}, o.task_id || ""), el("td", {}, o.client_name ? `${o.client_name} (${o.client})` : o.client),
    el("td", {}, el("span", { class: "pill " + (o.success ? "ok" : "bad") }, o.success ? "ok" : o.error_code)),
    el("td", { class: "num" }, ms(o.duration_ms)), el("td", { class: "num" }, fmt(o.tokens_saved)),
    el("td", {}, [o.no_progress && `no progress: ${o.no_progress}`, o.limit_triggered && `refused: ${o.limit_triggered}`,
      o.changed_paths && o.changed_paths.length ? `changed ${o.changed_paths.join(", ")}` : ""].filter(Boolean).join("; ")))));
}

function setFilter(key, value) {
  state.filters[key] = value;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state.filters)) if (v) q.set(k, v);
  history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
  load();
}

function start() { stop(); state.timer = setInterval(() => { if (!$("pause").checked) load(); }, 1000); load(); }
function stop() { if (state.timer) clearInterval(state.timer); state.timer = null; }

$("filters").addEventListener("change", (e) => setFilter(e.target.id.slice(2), e.target.value));
$("f-clear").addEventListener("click", () => { for (const k of Object.keys(state.filters)) state.filters[k] = ""; setFilter("task", ""); });
$("token-form").addEventListener("submit", (e) => {
  e.preventDefault();
  sessionStorage.setItem("cairn-token", $("token-input").value.trim());
  state.token = $("token-input").value.trim();
  start();
});
readToken();
start();
