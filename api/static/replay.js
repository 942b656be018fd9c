// Replaying one game: every event (GET /games/{id}/events), the board at any version
// (GET .../at/{v}; after the end, as any seat), a fork at any version (POST .../fork) and the score
// timeline (GET .../timeline, drawn as SVG); the analysis (POST .../analysis, analysis.js): the win
// probability graph under the board, mistakes marked on the strip under the scrubber.
import { api, clear, dealBadge, el, gameIdFromPath, seatLink, showProblem, takeToken } from "/static/common.js";
import { loadCatalog, onLayoutChange, renderBoard } from "/static/board.js";
import { History } from "/static/history.js";
import { Analysis } from "/static/analysis.js";
import { t } from "./i18n.js";

const gameId = gameIdFromPath();
const path = `/games/${encodeURIComponent(gameId)}`;
const token = takeToken(gameId);
let events = [];
let finished = false;
let current = 1;
let loading = 0;
let analysis = null;
const boardNode = document.getElementById("board");
// Every event is listed (no `limit`): the list is how one goes to any event of the game, the first ones
// of a long game too (the play page keeps only the newest, it follows a game as it goes on).
const history = new History(document.getElementById("events"), { onPick: (v) => show(v), newestFirst: false, limit: Infinity, foldRoutine: false });
onLayoutChange(boardNode, () => show(current));

document.getElementById("game").textContent = gameId.slice(0, 8);
document.getElementById("play-link").href = `/play/${encodeURIComponent(gameId)}`;
document.getElementById("who").textContent = token ? t("with your seat's view") : t("as a spectator");

async function loadEvents() {
  const all = [];
  let after = 0;
  while (after !== null) {
    const page = await api(`${path}/events?after=${after}&limit=500`, { token });
    all.push(...page.events);
    after = page.next_after;
  }
  return all;
}

function seatsOf(firstEvent) {
  return ((firstEvent && firstEvent.event.seats) || []).map(([name, character], seat) => ({ seat, name, character }));
}

async function show(version) {
  const head = events.length;
  current = Math.min(Math.max(1, version), head);
  document.getElementById("slider").value = String(current);
  document.getElementById("version").value = String(current);
  document.getElementById("fork-at").textContent = String(current);
  const item = events[current - 1];
  const seat = item.event.seat;
  const who = seat === null || seat === undefined ? t("Game") : (seatsOf(events[0])[seat] || {}).name || t("Seat {seat}", { seat });
  clear(document.getElementById("event"), el("strong", {}, t("Event {version}: ", { version: item.version })), `${who}: ${item.text || item.type}`, item.event.rule ? el("span", { class: "muted" }, ` (${item.event.rule})`) : null);
  history.mark(current);
  document.dispatchEvent(new CustomEvent("galileo:version", { detail: { version: current } }));  // chat.js
  if (analysis) analysis.mark(current);
  const asSeat = document.getElementById("as-seat").value;
  const query = finished && asSeat !== "" ? `?as_seat=${asSeat}` : "";
  const ticket = ++loading;
  try {
    const board = await api(`${path}/at/${current}${query}`, { token });
    const catalog = await loadCatalog(board.state.catalog.edition);
    if (ticket !== loading) return;  // a later step was asked for meanwhile
    showProblem(document.getElementById("board-problem"), null);
    renderBoard(boardNode, board, catalog);
    boardNode.dataset.version = String(board.version);
    boardNode.dataset.viewer = board.viewer.class;
  } catch (error) {
    if (ticket === loading) showProblem(document.getElementById("board-problem"), error);
  }
}

function listEvents() {
  history.setSeats(seatsOf(events[0]));
  history.set(events);
}

function forkForm(seats) {
  const kinds = [["", t("a person")], ["greedy", t("greedy bot")], ["random", t("random bot")]];
  clear(
    document.getElementById("fork-seats"),
    seats.map((s) => el("div", { class: "row" }, el("label", {}, t("Seat {seat} ({name}): ", { seat: s.seat, name: s.name }), el("select", { "data-seat": s.seat }, kinds.map(([value, label]) => el("option", { value }, label)))))),
  );
}

document.getElementById("fork").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seats = Array.from(document.querySelectorAll("#fork-seats select"), (select) => (select.value ? { bot: select.value } : {}));
  const problem = document.getElementById("fork-problem");
  try {
    const forked = await api(`${path}/fork`, { token, method: "POST", body: { at_version: current, seats } });
    showProblem(problem, null);
    const people = forked.seats.filter((s) => s.token);
    clear(
      document.getElementById("forked"),
      el(
        "div",
        { class: "ok" },
        el("p", {}, t("New game "), el("a", { href: `/play/${encodeURIComponent(forked.game_id)}` }, forked.game_id.slice(0, 8)), t(" at version "), forked.version, " ", dealBadge(forked.deal)),
        people.length ? el("p", {}, t("Each link is one seat's secret, shown only now:")) : null,
        el("ul", {}, people.map((s) => el("li", {}, t("Seat {seat}, {name}: ", { seat: s.seat, name: s.name }), el("a", { href: seatLink("play", forked.game_id, s.token) }, t("play"))))),
      ),
    );
  } catch (error) {
    showProblem(problem, error);
  }
});

const step = (delta) => show(current + delta);
document.getElementById("first").addEventListener("click", () => show(1));
document.getElementById("prev").addEventListener("click", () => step(-1));
document.getElementById("next").addEventListener("click", () => step(1));
document.getElementById("last").addEventListener("click", () => show(events.length));
document.getElementById("slider").addEventListener("input", (e) => show(Number(e.target.value)));
document.getElementById("as-seat").addEventListener("change", () => show(current));
document.getElementById("jump").addEventListener("submit", (e) => {
  e.preventDefault();
  show(Number(document.getElementById("version").value));
});
document.addEventListener("keydown", (e) => {
  const onSlider = e.target instanceof HTMLInputElement && e.target.type === "range";
  if ((e.target instanceof HTMLInputElement && !onSlider) || e.target instanceof HTMLSelectElement) return;
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  if (onSlider) e.preventDefault();  // the slider's own step would be a second one: one event a key
  step(e.key === "ArrowLeft" ? -1 : 1);
});

try {
  events = await loadEvents();
  finished = events.length > 0 && events[events.length - 1].type === "GameEnded";
  const seats = seatsOf(events[0]);
  const slider = document.getElementById("slider");
  slider.max = String(events.length);
  document.getElementById("version").max = String(events.length);
  document.getElementById("head").textContent = t("of {n_events}{on}", { n_events: events.length, on: finished ? " (finished: everything is public)" : t(" (the game goes on)") });
  if (finished) {
    const select = document.getElementById("as-seat");
    clear(select, el("option", { value: "" }, t("everyone (all revealed)")), seats.map((s) => el("option", { value: s.seat }, t("seat {seat}, {name}: what it could see", { seat: s.seat, name: s.name }))));
    document.getElementById("as-seat-label").hidden = false;
  }
  listEvents();
  forkForm(seats);
  document.getElementById("timeline").src = `${path}/timeline`;
  document.getElementById("timeline-link").href = `${path}/timeline`;
  analysis = new Analysis({
    path,
    token,
    head: events.length,
    seats,
    onPick: (v) => show(v),
    onMarks: (marks) => history.setMarks(marks),
    nodes: {
      root: document.getElementById("analysis"),
      form: document.getElementById("analyse"),
      budget: document.getElementById("budget"),
      cancel: document.getElementById("analysis-cancel"),
      progress: document.getElementById("analysis-progress"),
      status: document.getElementById("analysis-status"),
      problem: document.getElementById("analysis-problem"),
      graph: document.getElementById("win-graph"),
      strip: document.getElementById("mistake-strip"),
      list: document.getElementById("mistakes"),
    },
  });
  if (!finished && !token) {
    document.getElementById("analysis-note").textContent = t("A running game is analysed only from a seat's own view: open this page from your seat's link.");
    document.getElementById("analyse-button").disabled = true;
  }
  analysis.load();
  const wanted = Number(new URLSearchParams(location.search).get("v")) || events.length;
  await show(wanted);
} catch (error) {
  clear(document.getElementById("board"));
  showProblem(document.getElementById("board-problem"), error);
}
