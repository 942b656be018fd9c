// Playing one game: the board for this seat (GET /games/{id}), its legal moves (GET .../moves) posted
// back as buttons (POST .../commands with expected_version and a fresh command_id), problems shown as
// they come, and live updates from the SSE stream (GET .../stream).
import { Problem, api, clear, describeEvent, el, gameIdFromPath, newCommandId, renderBoard, saveToken, showProblem, takeToken } from "/static/common.js";

const gameId = gameIdFromPath();
const path = `/games/${encodeURIComponent(gameId)}`;
let token = takeToken(gameId);
let version = 0;
let stream = null;
let refreshing = null;
let again = false;
let shown = { moves: [], note: "", seen: 0 };

document.getElementById("game").textContent = gameId.slice(0, 8);
document.getElementById("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;

async function refresh() {
  // One refresh at a time; a request for another while one runs makes it run once more.
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await load();
    } while (again);
  })();
  try {
    await refreshing;
  } finally {
    refreshing = null;
  }
}

async function load() {
  const problem = document.getElementById("moves-problem");
  let board;
  try {
    board = await api(path, { token });
  } catch (error) {
    if (error instanceof Problem && error.status === 401) {
      saveToken(gameId, null);
      token = null;
    }
    clear(document.getElementById("board"));
    showProblem(document.getElementById("board"), error);
    return;
  }
  version = board.version;
  renderBoard(document.getElementById("board"), board);
  const seat = board.viewer.seat;
  const who = document.getElementById("who");
  who.textContent = seat === null || seat === undefined ? "watching as a spectator" : `playing seat ${seat}, ${board.seats[seat].name}`;
  document.title = `Galileo Galilei: ${board.your_turn ? "your turn" : board.status === "finished" ? "finished" : "waiting"}`;
  if (!token) return showMoves([], "Spectators have no moves.");
  try {
    const listing = await api(`${path}/moves`, { token });
    showProblem(problem, null);
    if (listing.version !== version) again = true;  // the game moved between the two reads
    const note = board.status === "finished" ? "The game has ended." : listing.to_act === listing.seat ? `Version ${listing.version}: choose a move.` : "Not your turn: waiting for the others.";
    showMoves(listing.moves, note, listing.version);
  } catch (error) {
    showProblem(problem, error);
  }
}

function showMoves(moves, note, seen) {
  shown = { moves, note, seen };
  document.getElementById("moves-note").textContent = note;
  const filter = document.getElementById("move-filter");
  filter.hidden = moves.length < 12;
  const words = filter.value.trim().toLowerCase();
  const buttons = moves
    .filter((m) => !words || (m.text || "").toLowerCase().includes(words))
    .map((move) => el("button", { type: "button", title: JSON.stringify(move), onclick: (e) => submit(move, seen, e.target) }, move.text || move.type));
  clear(document.getElementById("moves"), buttons);
}

async function submit(move, seen, button) {
  const problem = document.getElementById("moves-problem");
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  button.classList.add("primary");
  try {
    await api(`${path}/commands`, { token, method: "POST", body: { command: move, expected_version: seen, command_id: newCommandId() } });
    showProblem(problem, null);
  } catch (error) {
    showProblem(problem, error);  // 409: someone moved first; 422: illegal (with the rule); 403: not now
  }
  await refresh();
}

function follow() {
  // EventSource reconnects by itself with Last-Event-ID; a finished game answers 204, which stops it.
  if (stream) stream.close();
  const query = new URLSearchParams({ after: String(version) });
  if (token) query.set("access_token", token);  // EventSource cannot send an Authorization header
  stream = new EventSource(`${path}/stream?${query}`);
  const live = document.getElementById("live");
  const log = document.getElementById("log");
  stream.onopen = () => (live.textContent = "Live: new events appear here as they happen.");
  stream.onerror = () => (live.textContent = stream.readyState === EventSource.CLOSED ? "The stream has closed." : "Reconnecting…");
  stream.onmessage = (message) => {
    const item = JSON.parse(message.data);
    log.prepend(el("li", {}, describeEvent(item)));
    while (log.children.length > 200) log.lastElementChild.remove();
    if (item.version > version) refresh();
  };
  stream.addEventListener("end", () => {
    live.textContent = "The game has ended.";
    stream.close();
    refresh();
  });
}

document.getElementById("move-filter").addEventListener("input", () => showMoves(shown.moves, shown.note, shown.seen));
document.getElementById("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  token = document.getElementById("token").value.trim() || null;
  document.getElementById("token").value = "";
  saveToken(gameId, token);
  await refresh();
  follow();
});
document.getElementById("forget").addEventListener("click", async () => {
  token = null;
  saveToken(gameId, null);
  await refresh();
  follow();
});

await refresh();
follow();
