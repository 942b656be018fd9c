// Shared by the pages: calling the API, showing its problems, drawing a board view.
// Plain ES modules, no build step. Everything user-supplied is inserted as text, never as HTML.

// -- seat tokens ------------------------------------------------------------------------------------
// A seat token is a secret. Links carry it in the URL fragment (#token=...), which browsers never send
// to a server; the page moves it to localStorage (per game) and removes it from the address bar. It is
// sent only in the Authorization header, except to the live stream (EventSource cannot set headers),
// whose documented `access_token` query parameter the server scrubs from its logs.

const tokenKey = (gameId) => `galileo:token:${gameId}`;

export function gameIdFromPath() {
  return decodeURIComponent(location.pathname.split("/")[2] || "");
}

export function takeToken(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get("token");
  if (given) {
    localStorage.setItem(tokenKey(gameId), given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(tokenKey(gameId));
}

export function saveToken(gameId, token) {
  if (token) localStorage.setItem(tokenKey(gameId), token);
  else localStorage.removeItem(tokenKey(gameId));
}

export function seatLink(page, gameId, token) {
  return `${location.origin}/${page}/${encodeURIComponent(gameId)}` + (token ? `#token=${token}` : "");
}

export function newCommandId() {
  if (crypto.randomUUID) return crypto.randomUUID();  // secure contexts only (https, localhost)
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- the API ----------------------------------------------------------------------------------------

export class Problem extends Error {
  // An error answer: application/problem+json (RFC 9457) with a stable `code`.
  constructor(status, body) {
    const problem = body && typeof body === "object" ? body : {};
    super(problem.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export async function api(path, { token = null, method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Problem(0, { title: "Network error", detail: String(error), code: "network" });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

// -- building the page ----------------------------------------------------------------------------

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function showProblem(target, error) {
  if (!error) return clear(target);
  const p = error instanceof Problem ? error.problem : { title: "Error", detail: String(error) };
  const lines = [
    el("strong", {}, p.title || "Error", error.status ? ` (${error.status})` : ""),
    p.detail ? el("span", {}, ": ", p.detail) : null,
  ];
  const extra = [];
  if (p.code) extra.push(`code ${p.code}`);
  if (p.reason) extra.push(`reason ${p.reason}`);
  if (p.current_version !== undefined) extra.push(`current version ${p.current_version}`);
  const rule = p.rule_id ? [extra.length ? " · rule " : "rule ", ruleLink(p.rule_id)] : [];
  const notes = extra.length || rule.length ? el("div", { class: "muted" }, extra.join(" · "), rule) : null;
  return clear(target, el("div", { class: "problem", role: "alert" }, lines, notes));
}

export function shortId(gameId) {
  return String(gameId).slice(0, 8);
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export const DEAL_NOTES = {
  secret: null,
  "chosen-seed": "Practice game: its seed was chosen by whoever created it, who can know the whole deal.",
  known: "The deal is known (a fork of a finished game, or an imported file): not a fair game.",
};

export function dealBadge(deal) {
  if (!deal || deal === "secret") return null;
  return el("span", { class: "badge practice", title: DEAL_NOTES[deal] || "" }, deal === "chosen-seed" ? "practice: chosen seed" : `deal ${deal}`);
}

// -- a board view (GET /games/{id}, /games/{id}/at/{v}) ---------------------------------------------

const dice = (list) => (list || []).map(([colour, value]) => `${colour}${value}`).join(" ") || "–";

const points = (byName) =>
  Object.entries(byName || {})
    .map(([source, value]) => `${source} ${value}`)
    .join(", ") || "–";

function libraryCell(library) {
  if (!library || !library.length) return "–";
  return library.map(([card, dark]) => (String(card).startsWith("hidden:") ? `face down (tier ${String(card).slice(7)})` : `${card}${dark ? "" : " (face down)"}`)).join(", ");
}

function cardView(card, index) {
  if (!card) return el("li", { class: "card empty" }, `space ${index + 1}: empty`);
  const major = card.major;
  return el(
    "li",
    { class: "card" },
    el("div", {}, el("strong", {}, card.id), ` · tier ${card.tier}`),
    el("div", {}, `${major.name} (${major.mix}, cost ${major.cost}, ${major.vp} VP)`),
    el("ul", {}, card.constellations.map((c) => el("li", {}, `${c.name}: ${c.colour} cost ${c.cost} → ${c.reward.join(" + ")}`))),
  );
}

export function renderBoard(container, board, viewerLabel = "you") {
  const state = board.state || {};
  const seats = board.seats || [];
  const nameOf = (seat) => (seats[seat] ? `${seats[seat].name} (seat ${seat})` : `seat ${seat}`);
  const summary = [
    `Version ${board.version}`,
    `turn ${board.turn} (round ${board.round})`,
    `phase ${board.phase}`,
    board.status === "finished" ? "finished" : `to act: ${board.to_act === null ? "–" : nameOf(board.to_act)}`,
  ].join(" · ");
  const winners = board.winners && board.winners.length ? el("p", { class: "winners" }, "Winners: ", board.winners.map(nameOf).join(", ")) : null;
  const viewer = board.viewer || {};
  const players = state.players || [];
  const rows = seats.map((s) => {
    const p = players[s.seat] || {};
    return el(
      "tr",
      { class: s.seat === board.to_act ? "to-act" : null },
      el("td", {}, s.seat),
      el("td", {}, s.name, viewer.seat === s.seat ? ` (${viewerLabel})` : ""),
      el("td", {}, s.character),
      el("td", { class: "num" }, s.score),
      el("td", { class: "num" }, p.telescope ?? ""),
      el("td", {}, dice(p.dice)),
      el("td", { class: "num" }, p.reputation ?? ""),
      el("td", {}, libraryCell(p.library)),
      el("td", {}, points(p.points)),
    );
  });
  const deck = state.deck_tiers
    ? `Deck: ${state.deck_size} cards (tier 1: ${state.deck_tiers["1"] ?? 0}, tier 2: ${state.deck_tiers["2"] ?? 0}, tier 3: ${state.deck_tiers["3"] ?? 0}) · reserve ${state.reserve_size}`
    : `Deck: ${(state.deck || []).length} cards (revealed: the game has ended)`;
  const note = DEAL_NOTES[board.deal];
  clear(
    container,
    el("p", { class: "summary" }, summary, " ", board.your_turn ? el("span", { class: "badge turn" }, "your turn") : null, " ", el("span", { class: "muted" }, `viewing as ${viewer.class || "?"}`)),
    note ? el("p", { class: "note" }, note) : null,
    winners,
    el(
      "table",
      { class: "seats" },
      el("thead", {}, el("tr", {}, ["Seat", "Name", "Character", "Score", "Telescope", "Dice", "Reputation", "Library", "Points by source"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows),
    ),
    el("h3", {}, "Display"),
    el("ol", { class: "display" }, (board.display || []).map(cardView)),
    el("p", { class: "muted" }, deck),
    el("details", {}, el("summary", {}, "Everything in this view (JSON)"), el("pre", {}, JSON.stringify(board, null, 2))),
  );
}

export function describeEvent(item) {
  const event = item.event || {};
  const rest = Object.entries(event).filter(([k]) => !["type", "seat", "rule", "redacted"].includes(k));
  const detail = rest.map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  const who = event.seat === null || event.seat === undefined ? "" : ` seat ${event.seat}`;
  const hidden = event.redacted ? ` (not shown: ${event.redacted.join(", ")})` : "";
  const head = `${item.version}. ${item.type}${who}`;
  const room = 220 - head.length - (event.rule ? event.rule.length + 3 : 0);
  let tail = ` ${detail}${hidden}`;
  if (tail.length > room) tail = `${tail.slice(0, Math.max(room - 1, 0))}…`;
  // Children for el()/clear(): the rule ID links to its entry in the rules reference.
  return event.rule ? [head, " [", ruleLink(event.rule), "]", tail] : [head + tail];
}

// A rule ID as a link to its page in the rules reference (/rules/{rule_id}).
export function ruleLink(ruleId) {
  return el("a", { href: `/rules/${encodeURIComponent(ruleId)}`, class: "rule-link", title: `Rule ${ruleId} in the rules reference` }, ruleId);
}
