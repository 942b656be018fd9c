// A player's public profile (GET /players/{name}, docs/ratings.md): ratings per pool ("?" while
// provisional, RATE-4) with their history (SVG), games by mode, characters, points by source, recent games.
import { api, clear, el, showProblem, shortId } from "/static/common.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const base = `/players/${encodeURIComponent(name)}`;
document.getElementById("player-name").textContent = name;

function table(headers, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
}

try {
  const p = await api(base);
  clear(document.getElementById("player-ratings"),
    p.ratings.length ? p.ratings.map((r) => el("div", {},
      el("p", {}, `${r.pool} players: `, el("strong", {}, r.shown), ` (best ${r.best}, ${r.games} rated games)`),
      el("img", { src: `${base}/ratings/${r.pool}.svg`, alt: `rating history, ${r.pool} players` }))) : "No rated games yet.",
    Object.keys(p.solo_best).length ? el("p", {}, "Solo bests: ", Object.entries(p.solo_best).map(([l, s]) => `${l} ${s}`).join(", ")) : null);
  clear(document.getElementById("player-modes"), table(["players", "played", "finished", "won"],
    Object.entries(p.modes).map(([m, v]) => [m, v.played, v.finished, v.won])),
    el("p", { class: "muted" }, p.seconds_per_move === null ? "" : `${p.seconds_per_move} s a move on average (${p.moves} moves)`));
  clear(document.getElementById("player-characters"), table(["character", "games", "won", "win rate"],
    Object.entries(p.characters).map(([c, v]) => [c, v.games, v.won, `${Math.round(v.win_rate * 100)}%`])));
  clear(document.getElementById("player-points"), table(["source", "points"], Object.entries(p.points_by_source)));
  clear(document.getElementById("player-recent"), table(["game", "players", "status", "rank", "score", ""],
    p.recent.map((g) => [shortId(g.game_id), g.players, g.status, g.rank ?? "", g.score, el("a", { href: g.replay_link }, "replay")])));
} catch (error) {
  showProblem(document.getElementById("player-problem"), error);
  clear(document.getElementById("player-ratings"));
}
