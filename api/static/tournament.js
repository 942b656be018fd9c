// A tournament (GET /tournaments/{id}, docs/tournaments.md): its standings with the tie-breaks (TOUR-5)
// and each round's tables with links to their games.
import { api, clear, el, showProblem } from "/static/common.js";

const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

function table(headers, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
}

try {
  const t = await api(`/tournaments/${encodeURIComponent(id)}`);
  document.getElementById("tournament-name").textContent = t.name;
  document.getElementById("tournament-status").textContent =
    `${t.format}, ${t.seats} seats a table: ${t.status}` + (t.status === "running" ? `, round ${t.round} of ${t.rounds}` : "");
  clear(document.getElementById("tournament-standings"), table(["place", "player", "points", "Buchholz", "score", "wins", "games"],
    t.standings.map((s) => [s.place, s.player + (s.withdrawn ? " (withdrawn)" : ""), s.points, s.buchholz, s.score, s.wins, s.games])));
  clear(document.getElementById("tournament-rounds"), t.schedule.map((r) => el("div", {},
    el("h3", {}, `Round ${r.round}`),
    table(["table", "players (seat order)", "status", ""], r.tables.map((tb) => [tb.table, tb.players.join(", "), tb.status,
      el("a", { href: tb.status === "active" ? tb.play_link : tb.replay_link }, tb.status === "active" ? "watch" : "replay")])),
    r.byes.length ? el("p", { class: "muted" }, `Bye: ${r.byes.join(", ")}`) : null)));
} catch (error) {
  showProblem(document.getElementById("tournament-problem"), error);
}
