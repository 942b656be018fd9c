// The table of a game on its play page (docs/async.md): clocks, take-back, resignation, pausing, and the
// host's powers. A module of its own: it reads GET /games/{id}/table and posts the table routes; the
// board and the moves are play.js's. The seat token comes from localStorage (play.js took it from the
// link); a host token is pasted into the host form and kept in this browser only.
import { api, clear, el, gameIdFromPath, hostTokenKey, newCommandId, showProblem, takeToken } from "/static/common.js";
import { confirmEachMove } from "/static/moves.js";
import { TEXT } from "/static/words.js";
import { t } from "./i18n.js";
const PLAYED_BY = { person: t("person"), bot: t("bot"), server: t("server"), forfeit: t("forfeited"), opponent: t("Tycho Brahe's own rules"), nobody: t("nobody yet") };

const gameId = gameIdFromPath();
const path = `/games/${encodeURIComponent(gameId)}`;
const hostKey = hostTokenKey(gameId);
const panel = document.getElementById("table-panel");
const problem = document.getElementById("table-problem");
let table = null;

function seatToken() {
  return takeToken(gameId);
}

function hostToken() {
  return localStorage.getItem(hostKey);
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h` : h ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
}

async function post(url, body = {}, token = seatToken()) {
  try {
    const answer = await api(url, { token, method: "POST", body: { command_id: newCommandId(), ...body } });
    showProblem(problem, null);
    await load();
    return answer;
  } catch (error) {
    showProblem(problem, error);
    return null;
  }
}

function button(label, onClick, title = "") {
  const b = el("button", { type: "button", title });
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function renderClock(view) {
  // Who plays each seat, with its time when the game has a clock.
  const box = document.getElementById("table-clock");
  const c = view.clock;
  const rows = view.seats.map((s, i) => {
    const running = c && c.seat === i && !c.paused;
    const time = c ? `: ${duration(c.seconds_left[i])}${running ? " (running)" : ""}` : "";
    return el("li", { "data-seat": String(i), "data-played-by": s.played_by }, `${s.name}${time} — ${PLAYED_BY[s.played_by] || s.played_by}`);
  });
  if (!c) return clear(box, el("ul", {}, ...rows), el("p", { class: "muted" }, t("No clock: the game waits as long as it takes.")));
  const state = c.paused ? "Clocks paused." : c.deadline ? `Deadline: ${new Date(c.deadline).toLocaleString()}` : "";
  clear(box, el("ul", {}, ...rows), el("p", { class: "muted" }, state));
}

function renderSeatActions(view) {
  const box = document.getElementById("table-actions");
  const you = view.you;
  if (you.seat === null || you.seat === undefined || view.status !== "active") {
    renderUndo(view, null);
    return clear(box);
  }
  const mine = view.seats[you.seat];
  if (mine && mine.played_by !== "person") {
    // Resigned, timed out or handed over: the token may still read, no longer act (ASYNC-3).
    const by = mine.played_by === "bot" ? t("a bot ({bot})", { bot: mine.bot || "greedy" }) : t("the server (forfeited)");
    renderUndo(view, null);
    return clear(box, el("p", { class: "muted", id: "table-seat-gone" }, t("Your seat is played by {by} now.", { by })));
  }
  const items = [];
  const takeback = you.takeback || {};
  const pending = view.takeback && !view.takeback.lapsed ? view.takeback : null;
  renderUndo(view, takeback.allowed && !pending ? takeback : null);
  if (pending && pending.seat === you.seat) {
    items.push(el("span", { class: "muted" }, t("Your take-back to version {to_version} waits for the others.", { to_version: pending.to_version })));
  }
  if (pending && pending.seat !== you.seat && !(String(you.seat) in pending.answers)) {
    items.push(el("span", {}, t("Seat {seat} asks to take back to version {to_version}: ", { seat: pending.seat, to_version: pending.to_version })));
    items.push(button(t("Accept"), () => post(`${path}/takeback/answer`, { accept: true })));
    items.push(button(t("Decline"), () => post(`${path}/takeback/answer`, { accept: false })));
  }
  if (view.clock && !view.clock.paused && !view.pause_votes.includes(you.seat)) {
    items.push(button(t("Ask to pause"), () => post(`${path}/clock/pause`), t("The clocks stop when every person has asked")));
  }
  if (view.clock && view.clock.paused) items.push(button(t("Resume clocks"), () => post(`${path}/clock/resume`)));
  items.push(button(t("Resign"), () => {
    if (confirm(t("Resign this game? Your seat will be played by the server."))) post(`${path}/resign`);
  }));
  clear(box, ...items);
}

// Undo in the action bar: take back the last step, or the whole turn (ASYNC-7), as often as the
// horizon allows. With "confirm each move" on, each asks first; with others at the table it is a request.
function renderUndo(view, takeback) {
  const bar = document.getElementById("bar-undo");
  if (!bar) return;
  if (!takeback) return clear(bar);
  const alone = view.seats.filter((s) => s.played_by === "person").length <= 1;
  const act = (label, to, words) => {
    const go = () => post(`${path}/takeback`, to === takeback.to_version ? {} : { to_version: to });
    return button(alone ? label : `${TEXT.askTakeBack}: ${label.toLowerCase()}`, () => {
      if (!confirmEachMove()) return go();
      clear(bar, el("span", { class: "ask" }, TEXT.takeBackAsk(words)), " ",
        button(TEXT.takeBack, go, ""), button(TEXT.cancel, () => renderUndo(view, takeback), ""));
      bar.querySelector("button").focus({ preventScroll: true });
    }, words);
  };
  const items = [act(TEXT.undoStep, takeback.to_version, TEXT.lastStep)];
  if (takeback.restart_to !== null && takeback.restart_to !== undefined) items.push(act(TEXT.restartTurn, takeback.restart_to, TEXT.wholeTurn));
  clear(bar, ...items);
}

function renderHost(view) {
  const box = document.getElementById("table-host");
  const token = hostToken();
  if (!token) return clear(box);
  const rows = view.seats.map((s) => el("li", {},
    t("Seat {seat} ({name}, {played_by}) ", { seat: s.seat, name: s.name, played_by: s.played_by }),
    button(t("New link"), async () => {
      try {
        const link = await api(`${path}/host/seats/${s.seat}/link`, { token, method: "POST" });
        clear(document.getElementById("table-link"), el("code", {}, link.link));
      } catch (error) { showProblem(problem, error); }
    }),
    button(t("Hand to bot"), () => post(`${path}/host/seats/${s.seat}/handover`, { to: "bot" }, token)),
    button(t("Hand to a person"), async () => {
      const answer = await post(`${path}/host/seats/${s.seat}/handover`, { to: "person" }, token);
      if (answer && answer.link) clear(document.getElementById("table-link"), el("code", {}, answer.link.link));
    }),
    button(t("+1 day"), () => post(`${path}/host/clock/extend`, { seat: s.seat, by: "P1D" }, token)),
  ));
  clear(box, el("ul", {}, ...rows), button(t("Cancel the game"), () => {
    if (confirm(t("Cancel this game for everyone?"))) post(`${path}/host/cancel`, {}, token);
  }));
}

function renderHostActs(view) {
  // Everything the host did is an event of the log (ASYNC-9): shown to everyone, the seat it concerns first.
  const box = document.getElementById("table-host-acts");
  const acts = view.host_actions || [];
  if (!acts.length) return clear(box);
  const rows = acts.map((a) => el("li", { "data-version": String(a.version), "data-type": a.type },
    `v${a.version} ${a.type}${a.seat === null || a.seat === undefined ? "" : t(" (seat {seat})", { seat: a.seat })}`));
  clear(box, el("p", { class: "muted" }, t("The host's acts:")), el("ul", {}, ...rows));
}

async function load() {
  try {
    table = await api(`${path}/table`, { token: hostToken() || seatToken() });
    showProblem(problem, null);
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  renderClock(table);
  renderHostActs(table);
  renderSeatActions(hostToken() ? { ...table, you: { seat: null } } : table);
  renderHost(table);
}

document.getElementById("host-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("host-token");
  if (input.value.trim()) localStorage.setItem(hostKey, input.value.trim());
  else localStorage.removeItem(hostKey);
  input.value = "";
  document.dispatchEvent(new CustomEvent("galileo:host"));  // the chat panel mutes with it (chat.js)
  load();
});

if (panel) {
  load();
  setInterval(load, 5000);  // clocks tick and others answer; the live stream is play.js's
  // Whenever play.js redraws the board for a new version (a move, a take-back, an answer, a hand-over
  // seen on the live stream), the table follows at once rather than at the next tick.
  const board = document.getElementById("board");
  if (board) new MutationObserver(() => load()).observe(board, { attributes: true, attributeFilter: ["data-ready"] });
}
