// Playing one game: the board for this seat (GET /games/{id}) drawn from the catalog, its legal moves
// (GET .../moves) on the board elements they involve, each confirmed in words before it is posted
// (POST .../commands with expected_version and a fresh command_id), whose turn it is, the history in
// words, and live updates from the SSE stream (GET .../stream). Each panel is its own module.
import { Problem, api, clear, el, gameIdFromPath, newCommandId, saveToken, showProblem, takeToken } from "/static/common.js";
import { loadCatalog, onLayoutChange, renderBoard } from "/static/board.js";
import { History } from "/static/history.js";
import { MovePanel, confirmEachMove, installKeys } from "/static/moves.js";
import { TEXT } from "/static/words.js";
import { TurnBanner } from "/static/turn.js";
import { recoverIfAsked } from "/static/account.js";
import { lang, t } from "./i18n.js";

const gameId = gameIdFromPath();
const path = `/games/${encodeURIComponent(gameId)}`;
let token = takeToken(gameId);
// A My games link (#seat=N) opens a claimed seat on this device when no token here works (ACCT-2).
const recovery = await recoverIfAsked(gameId, token);
token = recovery.token;
if (recovery.problem) showProblem(document.getElementById("account-problem"), recovery.problem);
let version = 0;
let expected = 0;
let stream = null;
let refreshing = null;
let again = false;
let linkInvalid = false;  // the seat token was refused (401): the page shows the game as a spectator's
let sending = false;  // a command is being posted: its answer refreshes the board, the stream need not
let posted = 0;  // the version the last accepted command made: its own events need no second drawing
let seen = 0;  // the newest version the stream has told (a command's answer may be older: a bot moved since)

const boardNode = document.getElementById("board");
const banner = new TurnBanner(document.getElementById("banner"), document.getElementById("turn-options"));
const history = new History(document.getElementById("history"));
const panel = new MovePanel(document.getElementById("move-panel"), boardNode, submit, document.getElementById("move-list"), document.getElementById("bar-undo"));
installKeys(panel);
onLayoutChange(boardNode, () => refresh());

document.getElementById("game").textContent = gameId.slice(0, 8);
document.getElementById("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;

async function refresh(given = null) {
  // One refresh at a time; a request for another while one runs makes it run once more. `given`: a
  // board with its moves already in hand (a command's answer, include=board), drawn without a request.
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      const before = version;
      await load(given);
      given = null;
      // The stream told of a later version meanwhile (e.g. a bot moved while the command was answered,
      // which the stream leaves to the answer): read the board again (not after a failed read).
      if (seen > version && version > before) again = true;
    } while (again);
  })();
  try {
    await refreshing;
  } finally {
    refreshing = null;
  }
}

async function load(given = null) {
  const problem = document.getElementById("moves-problem");
  let board;
  let catalog;
  // The board and, for a seat, its moves at the same version: one request (include=moves).
  try {
    board = given || await api(token ? `${path}?include=moves` : path, { token });
    catalog = await loadCatalog(board.state.catalog.edition);
  } catch (error) {
    if (error instanceof Problem && error.status === 401 && token) {
      // A wrong or re-issued seat link: say so, and show the game as a spectator sees it.
      saveToken(gameId, null);
      token = null;
      linkInvalid = true;
      again = true;
      return;
    }
    clear(boardNode);
    showProblem(document.getElementById("board-problem"), error);
    return;
  }
  const notice = document.getElementById("board-problem");
  clear(notice, linkInvalid && !token ? el("p", { class: "note link-invalid", role: "status" }, TEXT.linkInvalid) : null);
  const hadFocus = boardNode.contains(document.activeElement) || document.getElementById("move-panel").contains(document.activeElement);
  version = board.version;
  renderBoard(boardNode, board, catalog);
  boardNode.dataset.version = String(board.version);
  banner.show(board);
  history.setSeats(board.seats);
  const seat = board.viewer.seat;
  document.getElementById("who").textContent = seat === null || seat === undefined ? "watching as a spectator" : t("playing seat {seat}, {name}", { seat, name: board.seats[seat].name });
  let listing = null;
  let note = TEXT.spectator;
  if (token && board.moves) {
    listing = board.moves;
    showProblem(problem, null);
    expected = listing.version;
    note = board.status === "finished" ? TEXT.ended : listing.to_act === listing.seat ? (confirmEachMove() ? TEXT.yourMove : TEXT.yourMoveQuick) : TEXT.notYourTurn;
  }
  document.getElementById("moves-note").textContent = note;
  finalScores(document.getElementById("final-scores"), board);
  panel.update(board, listing, catalog);
  document.getElementById("action-bar").classList.toggle("active", Boolean(listing && listing.moves.length));
  boardNode.dataset.ready = String(board.version);  // drawn, with its moves (tests wait on it)
  if (hadFocus) {
    const first = boardNode.querySelector(".target.live") || document.querySelector("#move-panel button");
    if (first) first.focus({ preventScroll: true });
  }
}

// The final scoring table of a finished game: each seat by name, its points by source and its total
// (the board view's `points`, as the engine scored them), the winners first.
function finalScores(box, board) {
  if (board.status !== "finished") return clear(box);
  const players = board.state.players.slice().sort((a, b) => b.score - a.score);
  const sources = [...new Set(players.flatMap((p) => Object.keys(p.points || {})))].sort();
  const winners = new Set(board.winners || []);
  clear(
    box,
    el("div", { class: "table-scroll" }, el(
      "table",
      { class: "final", "aria-label": TEXT.finalScores },
      el("caption", {}, TEXT.finalScores),
      el("thead", {}, el("tr", {}, el("th", {}, TEXT.player), sources.map((s) => el("th", { class: "num" }, TEXT.source(s))), el("th", { class: "num" }, TEXT.total))),
      el("tbody", {}, players.map((p) => el(
        "tr",
        { class: winners.has(p.seat) ? "winner" : null, "data-seat": p.seat },
        el("td", {}, `${board.seats[p.seat] ? board.seats[p.seat].name : p.name}${winners.has(p.seat) ? ` ${TEXT.winnerMark}` : ""}`),
        sources.map((s) => el("td", { class: "num" }, (p.points || {})[s] ?? 0)),
        el("td", { class: "num total" }, p.score),
      ))),
    )),
  );
}

async function submit(move) {
  const problem = document.getElementById("moves-problem");
  sending = true;
  let next = null;
  try {
    // include=board: the answer holds the board and moves after the move, drawn without another request.
    const result = await api(`${path}/commands?include=board`, { token, method: "POST", body: { command: move, expected_version: expected, command_id: newCommandId() } });
    posted = result.version;
    next = result.board || null;
    showProblem(problem, null);
  } catch (error) {
    showProblem(problem, error);  // 409: someone moved first; 422: illegal (with the rule); 403: not now
  } finally {
    sending = false;
  }
  await refresh(next);
}

async function loadHistory() {
  const all = [];
  let after = 0;
  while (after !== null) {
    const page = await api(`${path}/events?after=${after}&limit=500`, { token });
    all.push(...page.events);
    after = page.next_after;
  }
  history.set(all);
  return all.length ? all[all.length - 1].version : 0;
}

function follow(after) {
  // EventSource reconnects by itself with Last-Event-ID; a finished game answers 204, which stops it.
  if (stream) stream.close();
  const query = new URLSearchParams({ after: String(after), lang });  // its words in the page's language
  if (token) query.set("access_token", token);  // EventSource cannot send an Authorization header
  stream = new EventSource(`${path}/stream?${query}`);
  document.dispatchEvent(new CustomEvent("galileo:stream", { detail: { stream, token } }));  // chat.js
  const live = document.getElementById("live");
  stream.onopen = () => (live.textContent = t("Live: new events appear as they happen."));
  stream.onerror = () => (live.textContent = stream.readyState === EventSource.CLOSED ? "The stream has closed." : t("Reconnecting…"));
  stream.onmessage = (message) => {
    const item = JSON.parse(message.data);
    seen = Math.max(seen, item.version);
    history.add(item);
    if (item.version > Math.max(version, posted) && !sending) refresh();
  };
  stream.addEventListener("end", () => {
    live.textContent = t("The game has ended.");
    stream.close();
    refresh();
  });
}

async function start() {
  await refresh();
  let last = version;
  try {
    last = await loadHistory();
  } catch (error) {
    showProblem(document.getElementById("live"), error);
  }
  follow(last);
}

document.getElementById("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  token = document.getElementById("token").value.trim() || null;
  linkInvalid = false;
  document.getElementById("token").value = "";
  saveToken(gameId, token);
  await start();
});
document.getElementById("forget").addEventListener("click", async () => {
  token = null;
  saveToken(gameId, null);
  await start();
});

await start();
