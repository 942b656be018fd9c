// Shared by the pages: seat tokens, calling the API, showing its problems, building elements.
// The board is drawn by board.js, the moves by moves.js, whose turn by turn.js, the history by history.js.
// Plain ES modules, no build step. Everything user-supplied is inserted as text, never as HTML.
import { lang, t } from "./i18n.js";

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

// The table host's token of a game, pasted into the play page's Table panel and kept in this browser only.
export function hostTokenKey(gameId) {
  return `galileo:host:${gameId}`;
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

export async function api(path, { token = null, method = "GET", body, csrf = null } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang };  // the page's language (i18n.js)
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf) headers["X-CSRF-Token"] = csrf;  // a write the session cookie authenticates (account.js)
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Problem(0, { title: t("Network error"), detail: String(error), code: "network" });
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
  const p = error instanceof Problem ? error.problem : { title: t("Error"), detail: String(error) };
  const lines = [
    el("strong", {}, p.title || t("Error"), error.status ? ` (${error.status})` : ""),
    p.detail ? el("span", {}, ": ", p.detail) : null,
  ];
  const extra = [];
  if (p.code) extra.push(t("code {code}", { code: p.code }));
  if (p.reason) extra.push(t("reason {reason}", { reason: p.reason }));
  if (p.current_version !== undefined) extra.push(t("current version {current_version}", { current_version: p.current_version }));
  const rule = p.rule_id ? [extra.length ? " · rule " : t("rule "), ruleLink(p.rule_id)] : [];
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
  "chosen-seed": t("Practice game: its seed was chosen by whoever created it, who can know the whole deal."),
  known: t("The deal is known (a fork of a finished game, or an imported file): not a fair game."),
};

export function dealBadge(deal) {
  if (!deal || deal === "secret") return null;
  return el("span", { class: "badge practice", title: DEAL_NOTES[deal] || "" }, deal === "chosen-seed" ? t("practice: chosen seed") : t("deal {deal}", { deal }));
}

// A rule ID as a link to its page in the rules reference (/rules/{rule_id}).
export function ruleLink(ruleId) {
  return el("a", { href: `/rules/${encodeURIComponent(ruleId)}`, class: "rule-link", title: t("Rule {ruleId} in the rules reference", { ruleId }) }, ruleId);
}
