// Table chat (docs/chat.md): the seats' channel and the spectators' channel of one game, beside the board.
// On the play page the messages arrive on the game's own stream as `chat` events (play.js announces its
// EventSource with a "galileo:stream" event); on the replay page the panel shows the messages written up
// to the version on screen (replay.js announces it with "galileo:version"). A seat writes with its token,
// a signed-in spectator with the session (and its CSRF token); the chat is never part of the game's log.
// A seat, or the table host (its token pasted in the Table panel), mutes and unmutes a spectator (CHAT-4).
// Once the game has ended its stream closes: the panel then asks for new messages every few seconds.
import { t } from "/static/i18n.js";
import { api, clear, el, gameIdFromPath, hostTokenKey, showProblem, takeToken } from "/static/common.js";
import { currentAccount } from "/static/account.js";

const gameId = gameIdFromPath();
const path = `/games/${encodeURIComponent(gameId)}/chat`;
const panel = document.getElementById("chat-panel");
const replay = panel && panel.dataset.mode === "replay";
const messages = new Map();  // message_id -> message (tombstones included)
const MINE = `galileo-chat-mine:${gameId}`;
let token = takeToken(gameId);
let you = { seat: null, host: false, spectator: false };
let hidden = [];
let account = null;
let upTo = Infinity;  // the replay's version on screen
let mutedIds = new Set();  // to a seat or the host: the messages whose spectator is muted now
let stream = null;  // play.js's EventSource; closed once the game has ended
const POLL_MS = 5000;  // how often a closed stream's panel looks for new messages

// The token the panel reads and mutes with: the page's seat token, else the table host's.
function reader() {
  return token || localStorage.getItem(hostTokenKey(gameId));
}

function mine() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(MINE) || "[]"));
  } catch {
    return new Set();
  }
}

function remember(id) {
  const ids = mine();
  ids.add(id);
  sessionStorage.setItem(MINE, JSON.stringify([...ids]));
}

function take(message) {
  messages.set(message.message_id, message);
}

let looks = 0;  // each load's number: only the latest one's answer is shown

async function load() {
  if (!panel) return;
  const look = ++looks;
  const used = reader();
  try {
    const page = await api(`${path}`, { token: used });
    if (look !== looks) return;  // a later look was asked for meanwhile: its answer counts
    messages.clear();
    page.messages.forEach(take);
    you = page.you;
    hidden = page.hidden;
    mutedIds = new Set(page.muted_messages);
    showProblem(document.getElementById("chat-problem"), null);
  } catch (error) {
    if (look !== looks) return;
    if (error && error.status === 401 && token && used === token) {
      // A wrong or re-issued seat link: play.js says so above the board; the chat reads as a spectator's.
      token = null;
      return load();
    }
    showProblem(document.getElementById("chat-problem"), error);
  }
  render();
}

function act(label, handler, cls) {
  return el("button", { type: "button", class: `link ${cls}`, onclick: handler }, label);
}

function line(m) {
  const ownSeat = m.seat !== null && you.seat !== null && m.seat === you.seat;
  const own = ownSeat || (m.seat === null && mine().has(m.message_id));
  const tools = [];
  if (!replay && !m.deleted && own) tools.push(act(t("delete"), () => remove(m), "chat-delete"));
  if (!replay && you.seat !== null && m.seat !== null && m.seat !== you.seat) {
    tools.push(act(t("hide seat {seat}", { seat: m.seat }), () => hide(m.seat, true), "chat-hide"));
  }
  if (!replay && (you.seat !== null || you.host) && m.seat === null && !m.deleted) {
    const muted = mutedIds.has(m.message_id);
    tools.push(act(muted ? t("unmute") : t("mute"), () => mute(m, !muted), muted ? "chat-unmute" : "chat-mute"));
  }
  return el("li", { class: "chat-message", "data-id": m.message_id, "data-version": m.version },
    el("strong", {}, m.author), " ",
    m.deleted ? el("em", { class: "muted" }, t("(deleted)")) : el("span", { class: "chat-text" }, m.text),
    " ", el("span", { class: "muted" }, t("· event {version}", { version: m.version })), " ", ...tools);
}

function render() {
  if (!panel) return;
  const shown = [...messages.values()].filter((m) => m.version <= upTo).sort((a, b) => a.written_at.localeCompare(b.written_at) || a.seq - b.seq);
  for (const channel of ["seats", "spectators"]) {
    const list = document.getElementById(`chat-${channel}`);
    const items = shown.filter((m) => m.channel === channel && !(m.seat !== null && hidden.includes(m.seat)));
    clear(list, items.length ? items.map(line) : el("li", { class: "muted" }, t("No messages.")));
  }
  const unhide = document.getElementById("chat-hidden");
  clear(unhide, hidden.length ? [t("Hidden by you: "), ...hidden.map((s) => act(t("show seat {seat}", { seat: s }), () => hide(s, false), "chat-unhide"))] : null);
  const form = document.getElementById("chat-form");
  if (form) {
    const where = you.seat !== null ? "seats" : account ? "spectators" : null;
    document.getElementById("chat-where").textContent = where === "seats" ? t("You write in the seats' channel.")
      : where === "spectators" ? t("You write in the spectators' channel.") : t("Sign in (Account) to write as a spectator.");
    form.hidden = replay || (!where);
  }
}

async function send(event) {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  const text = input.value;
  if (!text.trim()) return;
  try {
    const csrf = you.seat === null && account ? account.csrf_token : null;
    const said = await api(path, { method: "POST", token: you.seat !== null ? token : null, csrf, body: { text } });
    if (said.seat === null) remember(said.message_id);
    take(said);
    input.value = "";
    showProblem(document.getElementById("chat-problem"), null);
  } catch (error) {
    showProblem(document.getElementById("chat-problem"), error);
  }
  render();
}

async function remove(m) {
  try {
    const csrf = m.seat === null && account ? account.csrf_token : null;
    take(await api(`${path}/${encodeURIComponent(m.message_id)}`, { method: "DELETE", token: m.seat !== null ? token : null, csrf }));
  } catch (error) {
    showProblem(document.getElementById("chat-problem"), error);
  }
  render();
}

async function hide(seat, value) {
  try {
    hidden = (await api(`${path}/hidden`, { method: "PUT", token, body: { seat, hidden: value } })).hidden;
  } catch (error) {
    showProblem(document.getElementById("chat-problem"), error);
  }
  await load();
}

async function mute(m, value) {
  try {
    await api(`${path}/mutes`, { method: "POST", token: reader(), body: { message_id: m.message_id, muted: value } });
    showProblem(document.getElementById("chat-problem"), null);
  } catch (error) {
    showProblem(document.getElementById("chat-problem"), error);
  }
  await load();  // every message of that spectator changes its button
}

// What was written since the newest message held (deletions come as tombstones with a new seq).
async function poll() {
  const after = Math.max(0, ...[...messages.values()].map((m) => m.seq));
  let page;
  try {
    page = await api(`${path}?after=${after}`, { token: reader() });
    page.messages.forEach(take);
    hidden = page.hidden;
    for (const id of page.muted_messages) mutedIds.add(id);
  } catch {
    return;  // the next look tries again; the form shows its own errors
  }
  if (page.messages.length) render();
}

document.addEventListener("galileo:host", () => load());  // a host token pasted in the Table panel

document.addEventListener("galileo:stream", (event) => {
  token = event.detail.token;
  stream = event.detail.stream;
  event.detail.stream.addEventListener("chat", (message) => {
    take(JSON.parse(message.data));
    render();
  });
  event.detail.stream.addEventListener("open", () => load());  // what was said while it reconnected
});

document.addEventListener("galileo:version", (event) => {
  upTo = event.detail.version;
  render();
});

if (panel) {
  const form = document.getElementById("chat-form");
  if (form) form.addEventListener("submit", send);
  account = await currentAccount().catch(() => null);
  await load();
  if (!replay) {
    setInterval(() => {
      if (stream && stream.readyState === EventSource.CLOSED && document.visibilityState === "visible") poll();
    }, POLL_MS);
  }
}
