// A player's public profile (GET /players/{name}, docs/ratings.md): ratings per pool ("?" while
// provisional, RATE-4) with their history (SVG), games by mode, characters, points by source, recent games.
import { t, tn } from "/static/i18n.js";
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
      el("p", {}, t("{n} players: ", { n: r.pool }), el("strong", {}, r.shown), tn(" (best {best}, {n} rated game)", " (best {best}, {n} rated games)", r.games, { best: r.best })),
      el("img", { src: `${base}/ratings/${r.pool}.svg`, alt: t("rating history, {n} players", { n: r.pool }) }))) : t("No rated games yet."),
    Object.keys(p.solo_best).length ? el("p", {}, t("Solo bests: "), Object.entries(p.solo_best).map(([l, s]) => `${l} ${s}`).join(", ")) : null);
  clear(document.getElementById("player-modes"), table([t("players"), t("played"), t("finished"), t("won")],
    Object.entries(p.modes).map(([m, v]) => [m, v.played, v.finished, v.won])),
    el("p", { class: "muted" }, p.seconds_per_move === null ? "" : tn("{seconds} s a move on average ({n} move)", "{seconds} s a move on average ({n} moves)", p.moves, { seconds: p.seconds_per_move })));
  clear(document.getElementById("player-characters"), table([t("character"), t("games"), t("won"), t("win rate")],
    Object.entries(p.characters).map(([c, v]) => [c, v.games, v.won, `${Math.round(v.win_rate * 100)}%`])));
  clear(document.getElementById("player-points"), table([t("source"), t("points")], Object.entries(p.points_by_source)));
  clear(document.getElementById("player-recent"), table([t("game"), t("players"), t("status"), t("rank"), t("score"), ""],
    p.recent.map((g) => [shortId(g.game_id), g.players, g.status, g.rank ?? "", g.score, el("a", { href: g.replay_link }, t("replay"))])));
} catch (error) {
  showProblem(document.getElementById("player-problem"), error);
  clear(document.getElementById("player-ratings"));
}
