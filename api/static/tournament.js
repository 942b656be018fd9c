// A tournament (GET /tournaments/{id}, docs/tournaments.md): its standings with the tie-breaks (TOUR-5)
// and each round's tables with links to their games.
import { t } from "/static/i18n.js";
import { api, clear, el, showProblem } from "/static/common.js";

const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

function table(headers, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
}

try {
  const tour = await api(`/tournaments/${encodeURIComponent(id)}`);
  document.getElementById("tournament-name").textContent = tour.name;
  const kind = tour.format === "swiss" ? t("Swiss") : t("round robin");
  const status = { entry: t("open for entries"), running: t("running"), finished: t("finished") }[tour.status] || tour.status;
  document.getElementById("tournament-status").textContent = tour.status === "running"
    ? t("{format}, {seats} seats a table: {status}, round {round} of {rounds}", { format: kind, seats: tour.seats, status, round: tour.round, rounds: tour.rounds })
    : t("{format}, {seats} seats a table: {status}", { format: kind, seats: tour.seats, status });
  clear(document.getElementById("tournament-standings"), table([t("place"), t("player"), t("points"), t("Buchholz"), t("score"), t("wins"), t("games")],
    tour.standings.map((s) => [s.place, s.withdrawn ? t("{player} (withdrawn)", { player: s.player }) : s.player, s.points, s.buchholz, s.score, s.wins, s.games])));
  clear(document.getElementById("tournament-rounds"), tour.schedule.map((r) => el("div", {},
    el("h3", {}, t("Round {round}", { round: r.round })),
    table([t("table"), t("players (seat order)"), t("status"), ""], r.tables.map((tb) => [tb.table, tb.players.join(", "), tb.status,
      el("a", { href: tb.status === "active" ? tb.play_link : tb.replay_link }, tb.status === "active" ? t("watch") : t("replay"))])),
    r.byes.length ? el("p", { class: "muted" }, t("Bye: {players}", { players: r.byes.join(", ") })) : null)));
} catch (error) {
  showProblem(document.getElementById("tournament-problem"), error);
}
