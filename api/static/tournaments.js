// The tournaments (GET /tournaments, docs/tournaments.md): the list, a form to create one (POST
// /tournaments), and entering, withdrawing and starting from the list. Writes are the session's, with
// its CSRF token as X-CSRF-Token (ACCT-3), as on the account page.
import { t, tn } from "/static/i18n.js";
import { api, clear, el, showProblem } from "/static/common.js";
import { currentAccount } from "/static/account.js";

const problem = document.getElementById("tournaments-problem");
const list = document.getElementById("tournaments-list");
const filter = document.getElementById("tournaments-status");
const form = document.getElementById("tournament-create");
const format = document.getElementById("tournament-format");
const STATUS = { entry: t("open for entries"), running: t("running"), finished: t("finished") };
let account = null;

// Durations go as ISO 8601 (PT30M, PT5H, P2D), as on the lobby's form.
const UNITS = [["M", t("minutes")], ["H", t("hours")], ["D", t("days")]];
for (const select of document.querySelectorAll("#clock select[id$=-unit]")) {
  for (const [value, label] of UNITS) select.append(el("option", { value, selected: value === "D" }, label));
}
const clockKind = document.getElementById("clock-kind");
clockKind.addEventListener("change", () => {
  for (const row of document.querySelectorAll("#clock [data-clock]")) row.hidden = row.dataset.clock !== clockKind.value;
});
format.addEventListener("change", () => {
  document.getElementById("tournament-rounds-label").hidden = format.value !== "swiss";  // round robin: the schedule's
});

function duration(name) {
  const amount = Math.max(0, Math.floor(Number(document.getElementById(`clock-${name}`).value) || 0));
  const unit = document.getElementById(`clock-${name}-unit`).value;
  return unit === "D" ? `P${amount}D` : `PT${amount}${unit}`;
}

function clockRequest() {
  if (clockKind.value === "per_move") return { per_move: duration("per-move"), reserve: duration("reserve") };
  return { base: duration("base"), increment: duration("increment") };
}

// An ISO 8601 duration as the service returns it (PT7200S, P1DT2H...) in words: "2 hours".
function spoken(iso) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(iso || "");
  if (!m) return iso;
  let seconds = Number(m[1] || 0) * 86400 + Number(m[2] || 0) * 3600 + Number(m[3] || 0) * 60 + Number(m[4] || 0);
  if (!seconds) return "";
  const units = [
    [86400, (n) => tn("{n} day", "{n} days", n)], [3600, (n) => tn("{n} hour", "{n} hours", n)],
    [60, (n) => tn("{n} minute", "{n} minutes", n)], [1, (n) => tn("{n} second", "{n} seconds", n)],
  ];
  for (const [size, words] of units) {
    if (seconds % size === 0) return words(seconds / size);
  }
  return iso;
}

function clockText(clock) {
  if (clock.per_move) {
    const reserve = clock.reserve ? spoken(clock.reserve) : "";
    return reserve ? t("{turn} a turn, {reserve} reserve", { turn: spoken(clock.per_move), reserve })
      : t("{turn} a turn", { turn: spoken(clock.per_move) });
  }
  const increment = clock.increment ? spoken(clock.increment) : "";
  return increment ? t("{bank} bank + {increment} a turn", { bank: spoken(clock.base), increment })
    : t("{bank} bank", { bank: spoken(clock.base) });
}

async function act(path) {
  clear(problem);
  try {
    await api(path, { method: "POST", csrf: account.csrf_token });
  } catch (error) {
    showProblem(problem, error);
  }
  await load();
}

function actions(tour) {
  if (!account || !tour.you || tour.status === "finished") return [];
  const path = `/tournaments/${encodeURIComponent(tour.tournament_id)}`;
  const out = [];
  if (tour.status === "entry" && !tour.you.entered) out.push(el("button", { type: "button", onclick: () => act(`${path}/entries`) }, t("Enter")));
  if (tour.you.entered && !tour.you.withdrawn) out.push(el("button", { type: "button", onclick: () => act(`${path}/withdraw`) }, t("Withdraw")));
  if (tour.status === "entry" && tour.you.host) out.push(el("button", { type: "button", class: "primary", onclick: () => act(`${path}/start`) }, t("Start")));
  return out;
}

async function load() {
  try {
    const { tournaments } = await api(filter.value ? `/tournaments?status=${encodeURIComponent(filter.value)}` : "/tournaments");
    if (!tournaments.length) {
      clear(list, el("p", { class: "muted" }, t("No tournaments yet.")));
      return;
    }
    const head = [t("name"), t("format"), t("seats a table"), t("rounds"), t("clock"), t("entrants"), t("status"), ""];
    clear(list, el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, tournaments.map((tour) => el("tr", { "data-tournament": tour.tournament_id }, [
        el("td", {}, el("a", { href: tour.link }, tour.name)),
        el("td", {}, tour.format === "swiss" ? t("Swiss") : t("round robin")),
        el("td", {}, String(tour.seats)),
        el("td", {}, tour.status === "entry" && tour.format === "round-robin" ? t("all meet") : String(tour.rounds)),
        el("td", {}, clockText(tour.clock)),
        el("td", {}, tour.you && tour.you.entered
          ? (tour.you.withdrawn ? t("{n} (you withdrew)", { n: tour.entrants }) : t("{n} (you are in)", { n: tour.entrants }))
          : String(tour.entrants)),
        el("td", {}, tour.status === "running" ? t("{status}, round {round}", { status: STATUS.running, round: tour.round }) : STATUS[tour.status]),
        el("td", {}, el("div", { class: "row" }, actions(tour))),
      ])))));
  } catch (error) {
    showProblem(problem, error);
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clear(problem);
  const body = {
    name: document.getElementById("tournament-name").value.trim(),
    format: format.value,
    seats: Number(document.getElementById("tournament-seats").value),
    clock: clockRequest(),
  };
  if (format.value === "swiss") body.rounds = Number(document.getElementById("tournament-rounds").value);
  try {
    await api("/tournaments", { method: "POST", body, csrf: account.csrf_token });
    form.reset();
    await load();
  } catch (error) {
    showProblem(problem, error);
  }
});
filter.addEventListener("change", load);

try {
  account = await currentAccount();
} catch (error) {
  showProblem(problem, error);
}
form.hidden = !account;
document.getElementById("tournament-create-signed-out").hidden = Boolean(account);
await load();
