// loregraph's game-master page: plain DOM, no build step. Every read asks the server with
// the view chosen by the toggle (player=1 → the same player-safe calls as --as-player).
"use strict";

const state = {
  campaign: document.body.dataset.campaign,
  player: false,
  tab: "ask",
  question: "",
  entity: "",
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function params(extra = {}) {
  const query = new URLSearchParams({ c: state.campaign, ...extra });
  if (state.player) query.set("player", "true");
  const asOf = $("as-of").value;
  if (asOf !== "") query.set("as_of", asOf);
  return query;
}

async function api(path, query = params(), options = {}) {
  const headers = { "Content-Type": "application/json" };
  const key = $("key").value || localStorage.getItem("loregraph-key");
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(`/web/api/${path}?${query}`, { headers, ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof body.detail === "string" ? body.detail
      : Array.isArray(body.detail) ? body.detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ")
      : response.statusText;
    throw new Error(detail);
  }
  return body;
}

function banner(message) {
  const node = $("banner");
  node.textContent = message || "";
  node.hidden = !message;
}

async function guarded(work) {
  banner("");
  try {
    await work();
  } catch (error) {
    banner(error.message);
  }
}

// ------------------------------------------------------------------ tabs and the toggle

function showTab(tab) {
  state.tab = tab;
  for (const button of document.querySelectorAll("nav button")) {
    button.classList.toggle("on", button.dataset.tab === tab);
  }
  for (const section of document.querySelectorAll("main > section")) {
    section.hidden = section.id !== `tab-${tab}`;
  }
  if (tab === "changelog") guarded(loadChangelog);
  if (tab === "graph" && !graphShown) guarded(showCommunities);
}

function setView(player) {
  state.player = player;
  document.body.classList.toggle("player", player);
  $("view-gm").classList.toggle("on", !player);
  $("view-player").classList.toggle("on", player);
  $("view-gm").setAttribute("aria-pressed", String(!player));
  $("view-player").setAttribute("aria-pressed", String(player));
  refresh();
}

function refresh() {
  graphShown = false;
  if (state.question) guarded(() => ask(state.question));
  if (state.entity) guarded(() => openEntity(state.entity, false));
  if (state.tab === "changelog") guarded(loadChangelog);
  if (state.tab === "graph") guarded(showCommunities);
}

// ------------------------------------------------------------------ ask

async function ask(question) {
  state.question = question;
  const result = await api("ask", params({ q: question }));
  const list = $("results");
  list.replaceChildren(...result.results.map(resultItem));
  if (!result.results.length) list.append(el("li", {}, "Nothing in this view answers that."));
}

function mark(available) {
  return el("span", { class: available ? "mark ok" : "mark no", title: available ? "available now" : "unavailable now" },
    available ? "✓" : "✗");
}

function resultItem(r) {
  const name = r.kind === "entity"
    ? el("a", { href: "#", class: "entity-link", onclick: (e) => { e.preventDefault(); guarded(() => openEntity(r.id, true)); } }, r.name)
    : el("span", { class: "passage-name" }, r.name);
  return el("li", { class: "result", "data-id": r.id },
    el("div", { class: "title" }, mark(r.available), " ", name, " ",
      el("span", { class: "type" }, r.type), r.status ? el("span", { class: "status" }, r.status) : null),
    r.status_note ? el("div", { class: "why" }, "status set by: ", r.status_note) : null,
    el("div", { class: "text" }, r.text),
    r.citations.length ? el("div", { class: "citations" }, "sources: ", r.citations.map(citation)) : null);
}

function citation(c) {
  if (c.kind === "chunk") {
    return el("button", { class: "cite", onclick: () => guarded(() => openPassage(c.id)) }, c.source);
  }
  const label = c.kind === "change" ? `change ${c.id} (session ${c.session_id})` : c.source;
  return el("span", { class: "cite static", title: c.quote }, label);
}

async function openPassage(id) {
  const chunk = await api("passage", params({ id }));
  $("passage-title").textContent = chunk.heading ? `${chunk.source_path} › ${chunk.heading}` : chunk.source_path;
  $("passage-text").textContent = chunk.text;
  $("passage").showModal();
}

// ------------------------------------------------------------------ entity

async function openEntity(name, switchTab) {
  const data = await api("entity", params({ name }));
  state.entity = data.entity.id;
  $("entity-name").value = data.entity.name;
  if (switchTab) showTab("entity");
  renderEntity(data);
}

function renderEntity({ entity: e, timeline, graph }) {
  const names = e.names || {};
  const link = (id) => el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); guarded(() => openEntity(id, true)); } }, names[id] || id);
  const status = e.status_change
    ? `${e.status} (session ${e.status_change.session_id}, change ${e.status_change.id})`
    : e.status || "no status";
  const available = !["dead", "destroyed", "disbanded", "lost", "abandoned", "failed", "missing", "captured"].includes(e.status)
    && e.attitude !== "hostile";
  $("entity").replaceChildren(...[
    el("h2", {}, mark(available), " ", e.name, " ", el("span", { class: "type" }, e.type)),
    el("p", { class: "status-line" }, "Status: ", status, e.attitude ? ` · attitude ${e.attitude}` : ""),
    e.aliases.length ? el("p", {}, "Also known as: ", e.aliases.join(", ")) : null,
    e.gm_aliases.length ? el("p", { class: "gm" }, "Secret names: ", e.gm_aliases.join(", ")) : null,
    el("p", { class: "description" }, e.description),
    (e.profile || []).length ? el("div", { class: "profile" },
      el("p", { class: "derived" }, "From the sources (derived, not authored):"),
      el("ul", {}, e.profile.map((p) => el("li", {}, p.text, " ", el("span", { class: "source" }, `(${p.source_path})`))))) : null,
    e.gm_notes ? el("p", { class: "gm" }, "GM notes: ", e.gm_notes) : null,
    el("div", { class: "columns" },
      el("div", {},
        el("h3", {}, "Timeline"),
        timeline.length ? el("ol", { class: "timeline" }, timeline.map(sessionItem))
          : el("p", {}, "No changes or session mentions yet."),
        el("h3", {}, "Relations"),
        el("ul", { class: "relations" }, e.relations.map((r) => el("li", {}, link(r.source), ` ${r.type} `, link(r.target),
          r.attitude ? ` (${r.attitude})` : "")))),
      el("div", {},
        el("h3", {}, "Neighbourhood"),
        el("div", { id: "entity-graph", class: "graph small" }),
        el("h3", {}, "Sources"),
        el("ul", { class: "sources" }, e.sources.map((s) => el("li", {}, s))))),
  ].filter(Boolean));
  drawGraph($("entity-graph"), graph, (id) => guarded(() => openEntity(id, true)));
}

function sessionItem(s) {
  const changes = s.changes.map((c) => el("li", { class: "change" },
    `${c.field} → ${c.new_value}`, c.note ? ` — ${c.note}` : "", ` (${c.id})`));
  const mentions = s.mentions.map((m) => el("li", { class: "mention" }, "mentioned in ",
    el("button", { class: "cite", onclick: () => guarded(() => openPassage(m.id)) }, m.source),
    `: “${m.quote}”`));
  return el("li", { "data-session": s.session }, el("strong", {}, `Session ${s.session}`),
    el("ul", {}, changes, mentions));
}

// ------------------------------------------------------------------ graphs

let graphShown = false;

function drawGraph(container, graph, onTap) {
  if (typeof cytoscape === "undefined") {
    container.textContent = "(graph library not loaded)";
    return;
  }
  const elements = [
    ...graph.nodes.map((n) => ({ data: { ...n }, classes: [n.kind || "entity", n.inactive ? "inactive" : "", n.id === graph.centre ? "centre" : ""].join(" ") })),
    ...graph.edges.map((e, i) => ({ data: { id: `e${i}`, ...e } })),
  ];
  const cy = cytoscape({
    container,
    elements,
    layout: { name: "cose", animate: false, randomize: false },
    style: [
      { selector: "node", style: { label: "data(label)", "font-size": 10, "background-color": "#4a7", width: 18, height: 18 } },
      { selector: "node.inactive", style: { "background-color": "#b44" } },
      { selector: "node.centre", style: { "border-width": 3, "border-color": "#222" } },
      { selector: "node.community", style: { "background-color": "#57a", shape: "round-rectangle", width: 30, height: 30 } },
      { selector: "edge", style: { width: 1, "line-color": "#bbb", "curve-style": "bezier", label: "data(label)", "font-size": 7, color: "#888" } },
    ],
  });
  cy.on("tap", "node", (event) => {
    if (!event.target.hasClass("community")) onTap(event.target.id());
  });
  return cy;
}

async function showCommunities() {
  const graph = await api("communities");
  graphShown = true;
  $("graph-caption").textContent = `${graph.nodes.filter((n) => n.kind === "community").length} communities`;
  drawGraph($("graph"), graph, (id) => guarded(() => openEntity(id, true)));
}

// ------------------------------------------------------------------ changelog and review

async function loadChangelog() {
  const sets = await api("changelog");
  $("changesets").replaceChildren(...sets.map((s) => el("div", { class: s.withdrawn_by ? "changeset withdrawn" : "changeset", "data-session": s.session_id },
    el("h3", {}, `Session ${s.session_id}`, s.revision > 1 ? ` (revision ${s.revision})` : "",
      s.withdraws ? ` — withdraws revision ${s.withdraws} from session ${s.at_session} on, by ${s.source}${s.note ? `: ${s.note}` : ""}`
        : s.title ? ` — ${s.title}` : "",
      s.withdrawn_by ? ` [withdrawn by revision ${s.withdrawn_by.revision} from session ${s.withdrawn_by.at_session} on]` : ""),
    el("ul", {}, s.changes.map((c) => el("li", { class: c.visibility === "gm" ? "gm" : "" },
      `${c.entity}${c.target ? ` → ${c.target}` : ""}: ${c.field} ${c.old_value ? `${c.old_value} → ` : "→ "}${c.new_value}`,
      c.note ? ` — ${c.note}` : "", c.visibility === "gm" ? " (GM only)" : ""))))));
  if (!sets.length) $("changesets").append(el("p", {}, "No change sets posted yet."));
}

async function checkDraft() {
  const parsed = await api("changeset/check", params(), { method: "POST", body: JSON.stringify({ text: $("draft").value }) });
  const rows = [
    ...(parsed.entity_updates || []).map((u) => el("tr", {}, el("td", {}, u.entity_id), el("td", {}, u.status || Object.keys(u.properties || {}).join(", ")), el("td", {}, u.visibility || parsed.visibility || "party"))),
    ...(parsed.relationship_updates || []).map((u) => el("tr", {}, el("td", {}, `${u.from} → ${u.to}`), el("td", {}, u.new_status), el("td", {}, u.visibility || parsed.visibility || "party"))),
  ];
  $("checked").replaceChildren(el("p", { class: "ok" }, `Session ${parsed.session_id}: ${rows.length} change(s) read. Review them, then accept.`),
    el("table", {}, el("tr", {}, el("th", {}, "what"), el("th", {}, "becomes"), el("th", {}, "visible to")), rows));
  $("post-button").disabled = false;
}

async function postDraft() {
  const body = JSON.stringify({ text: $("draft").value, amend: $("amend").checked });
  const done = await api("changeset", params(), { method: "POST", body });
  const said = done.action === "duplicate" ? `Session ${done.session_id} was already posted: nothing changed.`
    : `Posted session ${done.session_id} (revision ${done.revision}): ${done.changes} change(s); rebuild: ${done.rebuild}.`;
  $("posted").replaceChildren(el("p", { class: "ok" }, said));
  $("post-button").disabled = true;
  await loadChangelog();
}

async function draftFromRecap() {
  const body = JSON.stringify({ session: Number($("draft-session").value), transcript: $("transcript").value });
  const made = await api("recap/draft", params(), { method: "POST", body });
  $("draft").value = made.text;
  $("post-button").disabled = true;
}

// ------------------------------------------------------------------ start

async function start() {
  for (const button of document.querySelectorAll("nav button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  $("view-gm").addEventListener("click", () => setView(false));
  $("view-player").addEventListener("click", () => setView(true));
  $("as-of").addEventListener("change", refresh);
  $("key").form.addEventListener("submit", (e) => e.preventDefault());
  $("key").addEventListener("change", () => { localStorage.setItem("loregraph-key", $("key").value); refresh(); });
  $("campaign").addEventListener("change", () => { state.campaign = $("campaign").value; state.entity = ""; refresh(); });
  $("ask-form").addEventListener("submit", (e) => { e.preventDefault(); guarded(() => ask($("question").value)); });
  $("entity-form").addEventListener("submit", (e) => { e.preventDefault(); guarded(() => openEntity($("entity-name").value, false)); });
  $("graph-communities").addEventListener("click", () => guarded(showCommunities));
  $("check-button").addEventListener("click", () => guarded(checkDraft));
  $("post-button").addEventListener("click", () => guarded(postDraft));
  $("draft-button").addEventListener("click", () => guarded(draftFromRecap));
  $("draft").addEventListener("input", () => { $("post-button").disabled = true; });
  await guarded(async () => {
    const campaigns = await api("campaigns", new URLSearchParams());
    const names = campaigns.includes(state.campaign) ? campaigns : [state.campaign, ...campaigns];
    $("campaign").replaceChildren(...names.map((c) => el("option", { value: c }, c)));
    $("campaign").value = state.campaign;
  });
  document.body.dataset.ready = "true";
}

start();
