// The tournaments (GET /tournaments, docs/tournaments.md): the list, a form to create one (POST
// /tournaments), and entering, withdrawing and starting from the list. Writes are the session's, with
// its CSRF token as X-CSRF-Token (ACCT-3), as on the account page.
import { api, clear, el, showProblem } from "/static/common.js";
import { currentAccount } from "/static/account.js";

const problem = document.getElementById("tournaments-problem");
const list = document.getElementById("tournaments-list");
const filter = document.getElementById("tournaments-status");
const form = document.getElementById("tournament-create");
const format = document.getElementById("tournament-format");
const STATUS = { entry: "open for entries", running: "running", finished: "finished" };
let account = null;

// Durations go as ISO 8601 (PT30M, PT5H, P2D), as on the lobby's form.
const UNITS = [["M", "minutes"], ["H", "hours"], ["D", "days"]];
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
  if (!seconds) return "none";
  for (const [size, unit] of [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]]) {
    if (seconds % size === 0) return `${seconds / size} ${unit}${seconds === size ? "" : "s"}`;
  }
  return iso;
}

function clockText(clock) {
  if (clock.per_move) {
    return `${spoken(clock.per_move)} a turn` + (clock.reserve && spoken(clock.reserve) !== "none" ? `, ${spoken(clock.reserve)} reserve` : "");
  }
  return `${spoken(clock.base)} bank` + (clock.increment && spoken(clock.increment) !== "none" ? ` + ${spoken(clock.increment)} a turn` : "");
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

function actions(t) {
  if (!account || !t.you || t.status === "finished") return [];
  const path = `/tournaments/${encodeURIComponent(t.tournament_id)}`;
  const out = [];
  if (t.status === "entry" && !t.you.entered) out.push(el("button", { type: "button", onclick: () => act(`${path}/entries`) }, "Enter"));
  if (t.you.entered && !t.you.withdrawn) out.push(el("button", { type: "button", onclick: () => act(`${path}/withdraw`) }, "Withdraw"));
  if (t.status === "entry" && t.you.host) out.push(el("button", { type: "button", class: "primary", onclick: () => act(`${path}/start`) }, "Start"));
  return out;
}

async function load() {
  try {
    const { tournaments } = await api(filter.value ? `/tournaments?status=${encodeURIComponent(filter.value)}` : "/tournaments");
    if (!tournaments.length) {
      clear(list, el("p", { class: "muted" }, "No tournaments yet."));
      return;
    }
    const head = ["name", "format", "seats a table", "rounds", "clock", "entrants", "status", ""];
    clear(list, el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, tournaments.map((t) => el("tr", { "data-tournament": t.tournament_id }, [
        el("td", {}, el("a", { href: t.link }, t.name)),
        el("td", {}, t.format === "swiss" ? "Swiss" : "round robin"),
        el("td", {}, String(t.seats)),
        el("td", {}, t.status === "entry" && t.format === "round-robin" ? "all meet" : String(t.rounds)),
        el("td", {}, clockText(t.clock)),
        el("td", {}, String(t.entrants) + (t.you && t.you.entered ? (t.you.withdrawn ? " (you withdrew)" : " (you are in)") : "")),
        el("td", {}, STATUS[t.status] + (t.status === "running" ? `, round ${t.round}` : "")),
        el("td", {}, el("div", { class: "row" }, actions(t))),
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
