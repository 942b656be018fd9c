// The lobby: list games (GET /games), create one (POST /games), statistics (GET /stats).
import { Problem, api, clear, dealBadge, el, saveToken, seatLink, shortId, showProblem, when } from "/static/common.js";
import { characterName, t, tn } from "./i18n.js";

// CHAR-2: the characters a new game offers, the current catalog edition's (GET /catalog/current).
const CHARACTERS = api("/catalog/current").then((catalog) => catalog.characters.map((c) => c.id), () => []);
const STATUSES = { active: t("active"), finished: t("finished"), cancelled: t("cancelled") };
const BOTS = { greedy: t("greedy"), random: t("random") };
const KINDS = [["person", t("a person")], ["greedy", t("greedy bot")], ["random", t("random bot")]];
const seatsBody = document.getElementById("seats");

function characterSelect() {
  const select = el("select", { name: "character" }, el("option", { value: "" }, t("any")));
  CHARACTERS.then((ids) => select.append(...ids.map((c) => el("option", { value: c }, c))));
  return select;
}

function seatRow(index) {
  return el(
    "tr",
    {},
    el("td", {}, index),
    el("td", {}, el("select", { name: "kind" }, KINDS.map(([value, label]) => el("option", { value, selected: index > 0 && value === "greedy" }, label)))),
    el("td", {}, el("input", { name: "name", maxlength: 40, placeholder: t("Player {index}", { index: index + 1 }) })),
    el("td", {}, characterSelect()),
    el("td", {}, el("select", { name: "side", title: t("The character board's side (CHAR-1)") }, el("option", { value: "basic" }, t("basic")), el("option", { value: "ability" }, t("ability")))),
  );
}

// SOLO-26 (CN p.16): in the solo game the person always plays the ability side, so one seat offers no side.
function soloSide(solo) {
  const select = seatsBody.firstElementChild?.querySelector("[name=side]");
  if (!select) return;
  if (solo) select.value = "ability";
  select.disabled = solo;
  select.title = solo ? "In the solo game the person always plays the ability side (SOLO-26)" : t("The character board's side (CHAR-1)");
  for (const option of select.options) option.hidden = solo && option.value === "basic";
}

function setSeats(count) {
  while (seatsBody.children.length < count) seatsBody.append(seatRow(seatsBody.children.length));
  while (seatsBody.children.length > count) seatsBody.lastElementChild.remove();
  soloSide(count === 1);
  document.getElementById("add-seat").disabled = count >= 4;
  document.getElementById("remove-seat").disabled = count <= 1;
}

// The clock (POST /games `clock`, docs/async.md): time for each turn with a reserve, or a bank per seat
// with an increment; durations go as ISO 8601 (PT30M, PT5H, P2D).
const UNITS = [["M", t("minutes")], ["H", t("hours")], ["D", t("days")]];
for (const select of document.querySelectorAll("#clock select[id$=-unit]")) {
  for (const [value, label] of UNITS) select.append(el("option", { value, selected: value === "D" }, label));
}
const clockKind = document.getElementById("clock-kind");
clockKind.addEventListener("change", () => {
  for (const row of document.querySelectorAll("#clock [data-clock]")) {
    row.hidden = !clockKind.value || (row.dataset.clock !== "any" && row.dataset.clock !== clockKind.value);
  }
});

function duration(name) {
  const amount = Math.max(0, Math.floor(Number(document.getElementById(`clock-${name}`).value) || 0));
  const unit = document.getElementById(`clock-${name}-unit`).value;
  return unit === "D" ? `P${amount}D` : `PT${amount}${unit}`;
}

function clockRequest() {
  const kind = clockKind.value;
  if (!kind) return null;
  const clock = { on_timeout: document.getElementById("clock-timeout").value };
  if (kind === "per_move") Object.assign(clock, { per_move: duration("per-move"), reserve: duration("reserve") });
  else Object.assign(clock, { base: duration("base"), increment: duration("increment") });
  return clock;
}

document.getElementById("add-seat").addEventListener("click", () => setSeats(seatsBody.children.length + 1));
document.getElementById("remove-seat").addEventListener("click", () => setSeats(seatsBody.children.length - 1));

document.getElementById("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seats = Array.from(seatsBody.children, (row) => {
    const kind = row.querySelector("[name=kind]").value;
    const name = row.querySelector("[name=name]").value.trim();
    const character = row.querySelector("[name=character]").value;
    const side = row.querySelector("[name=side]").value;
    const seat = {};
    if (side === "ability" || seatsBody.children.length === 1) seat.side = "ability"; // SOLO-26 in solo
    if (kind !== "person") seat.bot = kind;
    if (name) seat.name = name;
    if (character) seat.character = character;
    return seat;
  });
  const luna = document.getElementById("luna").checked;
  const body = { seats, options: luna ? { luna: true } : {} };
  const level = document.getElementById("difficulty").value;
  if (seats.length === 1 && luna && level) body.difficulty = level; // SOLO-2: the solo game's level
  const clock = clockRequest();
  if (clock) body.clock = clock;
  const seed = document.getElementById("seed").value.trim();
  if (seed) body.seed = seed;
  const problem = document.getElementById("create-problem");
  showProblem(problem, null);
  try {
    const created = await api("/games", { method: "POST", body });
    showCreated(created);
    loadGames();
  } catch (error) {
    showProblem(problem, error);
  }
});

function showCreated(created) {
  const people = created.seats.filter((s) => s.token);
  clear(
    document.getElementById("created"),
    el(
      "div",
      { class: "ok" },
      el("p", {}, t("Game "), el("code", {}, shortId(created.game_id)), t(" created "), dealBadge(created.deal)),
      people.length
        ? el("p", {}, t("Each link below is one seat's secret, shown only now: open yours, send the others to their players."))
        : el("p", {}, t("Every seat is a bot: "), el("a", { href: `/play/${encodeURIComponent(created.game_id)}` }, t("watch the game"))),
      created.host_token
        ? el("p", {}, t("Table host token (re-issue a lost link, hand a seat over, extend a clock, cancel; paste it in a play page's Table panel), shown only now: "), el("code", {}, created.host_token))
        : null,
      el(
        "ul",
        {},
        people.map((s) =>
          el(
            "li",
            {},
            t("Seat {seat}, {name} ({character}{side}): ", { seat: s.seat, name: s.name, character: characterName(s.character), side: s.side === "ability" ? t(", ability side") : "" }),
            el("a", { href: seatLink("play", created.game_id, s.token) }, t("play")),
            " ",
            el("button", { type: "button", onclick: () => navigator.clipboard.writeText(seatLink("play", created.game_id, s.token)) }, t("copy link")),
          ),
        ),
      ),
    ),
  );
}

// A seat in words: whole messages (not pieces glued together), so that each language orders them.
function seatWords(s) {
  const params = { name: s.name, character: characterName(s.character), bot: BOTS[s.bot] || s.bot };
  const ability = s.side === "ability";
  if (s.bot) return ability ? t("{name} ({character}, ability side, {bot} bot)", params) : t("{name} ({character}, {bot} bot)", params);
  return ability ? t("{name} ({character}, ability side)", params) : t("{name} ({character})", params);
}

function seatsText(seats, solo) {
  const text = seats.map((s) => seatWords(s)).join(", ");
  return solo ? `${text} · solo${solo.difficulty ? `, ${solo.difficulty}` : ""}` : text;
}

async function loadGames() {
  const problem = document.getElementById("games-problem");
  const status = document.getElementById("status").value;
  try {
    const lobby = await api(`/games?limit=100${status ? `&status=${status}` : ""}`);
    showProblem(problem, null);
    const rows = lobby.games.map((g) => {
      const id = encodeURIComponent(g.game_id);
      const toAct = g.to_act === null ? "–" : (g.seats[g.to_act] || {}).name;
      return el(
        "tr",
        {},
        el("td", {}, el("code", { title: g.game_id }, shortId(g.game_id))),
        el("td", {}, el("span", { class: `badge ${g.status}` }, STATUSES[g.status] || g.status), " ", dealBadge(g.deal), g.options && g.options.luna ? [" ", el("span", { class: "badge luna", title: t("Played with the Luna expansion") }, t("Luna"))] : null),
        el("td", {}, seatsText(g.seats, g.solo)),
        el("td", {}, toAct, g.clock && g.clock.deadline ? ` (time until ${when(g.clock.deadline)})` : ""),
        el("td", { class: "num" }, g.version),
        el("td", {}, when(g.last_move_at)),
        el("td", { class: "nowrap" }, el("a", { href: `/play/${id}` }, g.status === "finished" ? t("board") : t("play")), " · ", el("a", { href: `/replay/${id}` }, t("replay"))),
      );
    });
    clear(document.getElementById("games"), rows.length ? rows : el("tr", {}, el("td", { colspan: 7, class: "muted" }, t("No games yet."))));
  } catch (error) {
    showProblem(problem, error);
  }
}

async function loadStats() {
  const target = document.getElementById("stats");
  try {
    const stats = await api("/stats");
    if (!stats.games) return clear(target, t("No finished games yet ({in_progress} in progress).", { in_progress: stats.in_progress }));
    clear(
      target,
      el("p", {}, t("{games} finished {games2}; the first seat wins {stats} % (fair share {stats2} %).", { games: stats.games, games2: stats.games === 1 ? "game" : "games", stats: (100 * (stats.first_seat.win_rate || 0)).toFixed(0), stats2: (100 * (stats.first_seat.fair_rate || 0)).toFixed(0) })),
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, ["Character", t("Games"), t("Wins"), t("Win rate"), t("Mean score")].map((h) => el("th", {}, h)))),
        el("tbody", {}, stats.characters.map((c) => el("tr", {}, el("td", {}, characterName(c.character)), el("td", { class: "num" }, c.games), el("td", { class: "num" }, c.wins), el("td", { class: "num" }, `${(100 * c.win_rate).toFixed(0)} %`), el("td", { class: "num" }, c.mean_score.toFixed(1))))),
      ),
    );
  } catch (error) {
    showProblem(target, error);
  }
}

// "Your games": every game whose seat token this browser keeps (localStorage, see common.js), with
// whether it is that seat's turn. A token the service no longer knows (game gone, token refused) is
// forgotten.
async function loadMine() {
  const ids = Object.keys(localStorage).filter((k) => k.startsWith("galileo:token:")).map((k) => k.slice("galileo:token:".length));
  const section = document.getElementById("mine-section");
  section.hidden = !ids.length;
  if (!ids.length) return;
  const rows = await Promise.all(
    ids.map(async (id) => {
      const token = localStorage.getItem(`galileo:token:${id}`);
      try {
        const board = await api(`/games/${encodeURIComponent(id)}`, { token });
        return { id, board };
      } catch (error) {
        if (error instanceof Problem && (error.status === 401 || error.status === 404)) saveToken(id, null);
        return null;
      }
    }),
  );
  const known = rows.filter(Boolean);
  known.sort((a, b) => Number(b.board.your_turn) - Number(a.board.your_turn) || (a.board.status === "finished") - (b.board.status === "finished"));
  const yours = known.filter((r) => r.board.your_turn).length;
  document.title = yours ? tn("● Your turn in {n} game · Galileo Galilei", "● Your turn in {n} games · Galileo Galilei", yours) : t("Galileo Galilei: lobby");
  section.hidden = !known.length;
  clear(
    document.getElementById("mine"),
    known.map(({ id, board }) => {
      const seat = board.viewer.seat;
      const me = board.seats[seat] || {};
      const state = board.status === "finished" ? el("span", { class: "badge finished" }, "finished") : board.your_turn ? el("span", { class: "badge turn" }, t("your turn")) : el("span", { class: "badge" }, t("waiting for {name}", { name: (board.seats[board.to_act] || {}).name || "?" }));
      return el("li", { class: board.your_turn ? "your-turn" : null }, state, " ", el("a", { href: `/play/${encodeURIComponent(id)}` }, t("Game {shortId}", { shortId: shortId(id) })), t(" as {seat}, round {round}, {board}", { seat: me.name || t("seat {seat}", { seat }), round: board.round, board: board.seats.map((s) => `${s.name} ${s.score}`).join(" · ") }));
    }),
  );
}

document.getElementById("status").addEventListener("change", loadGames);
document.getElementById("refresh").addEventListener("click", loadGames);
setSeats(2);
loadGames();
loadMine();
loadStats();
setInterval(() => {
  loadGames();
  loadMine();
}, 15000);
