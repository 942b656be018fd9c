// The replay page's analysis (docs/analysis-api.md): ask for one (POST /games/{id}/analysis), follow its
// progress, cancel it (DELETE its job), then draw each seat's win probability after every decision under
// the board, with the mistakes marked on the graph, on the timeline strip under the scrubber and in a list;
// each mark jumps to the move.
import { api, clear, el, showProblem } from "/static/common.js";
import { s, seatColour, text } from "/static/svg.js";
import { t } from "./i18n.js";

const FINAL = ["finished", "failed", "cancelled"];
const POLL_MS = 500;
const W = 640;
const H = 180;
const PAD = { left: 34, right: 8, top: 8, bottom: 20 };
const LABELS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

export class Analysis {
  constructor({ path, token, head, seats, onPick, onMarks = () => {}, nodes }) {
    this.onMarks = onMarks;
    this.path = path;
    this.token = token;
    this.head = head;
    this.seats = seats;
    this.onPick = onPick;
    this.nodes = nodes;
    this.job = null;
    this.result = null;
    this.timer = null;
    nodes.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.request();
    });
    nodes.cancel.addEventListener("click", () => this.cancel());
    nodes.budget.addEventListener("change", () => this.load());
  }

  // The job this browser last asked for with the chosen budget (kept in localStorage), if any.
  get remembered() {
    return `galileo-analysis:${this.path}:${this.nodes.budget.value}:${this.token ? "seat" : "all"}`;
  }

  async load() {
    this.stop();
    const url = localStorage.getItem(this.remembered);
    if (!url) return;
    try {
      this.follow(await api(url, { token: this.token }));
    } catch {
      localStorage.removeItem(this.remembered);  // expired, or another seat's
    }
  }

  async request() {
    this.stop();
    showProblem(this.nodes.problem, null);
    try {
      const job = await api(`${this.path}/analysis`, { token: this.token, method: "POST", body: { budget: this.nodes.budget.value } });
      localStorage.setItem(this.remembered, job.url);
      this.follow(job);
    } catch (error) {
      showProblem(this.nodes.problem, error);
    }
  }

  async cancel() {
    if (!this.job) return;
    try {
      this.follow(await api(this.job.url, { token: this.token, method: "DELETE" }));
    } catch (error) {
      showProblem(this.nodes.problem, error);
    }
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  follow(job) {
    this.job = job;
    const { progress, cancel, root } = this.nodes;
    root.dataset.status = job.status;
    const active = !FINAL.includes(job.status);
    cancel.hidden = !active || job.status === "cancelling";
    progress.hidden = !active;
    if (job.progress.total) {
      progress.max = job.progress.total;
      progress.value = job.progress.done;
    } else progress.removeAttribute("value");
    if (job.status === "finished") {
      this.status(t("Analysed at version {version} (budget {budget}).", { version: job.version, budget: job.budget }));
      this.show(job.result);
      return;
    }
    if (job.status === "failed") this.status(job.error || t("The analysis failed."));
    else if (job.status === "cancelled") this.status(t("Cancelled."));
    else {
      const total = job.progress.total ? ` of ${job.progress.total}` : "";
      this.status(job.status === "queued" ? "Queued…" : t("{Analysing}: {done}{total} decisions", { Analysing: job.status === "cancelling" ? "Cancelling" : t("Analysing"), done: job.progress.done, total }));
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  async poll() {
    try {
      this.follow(await api(this.job.url, { token: this.token }));
    } catch (error) {
      showProblem(this.nodes.problem, error);
    }
  }

  status(message) {
    this.nodes.status.textContent = message;
  }

  show(result) {
    this.result = result;
    const mistakes = result.decisions.filter((d) => d.mistake);
    this.graph(result);
    this.strip(mistakes);
    this.list(result, mistakes);
    this.onMarks(new Map(mistakes.map((d) => [this.target(d), [d.mistake, this.describe(d)]])));
  }

  // The version to show for a decision: its move's first event (the board after the move played).
  target(decision) {
    return Math.min(decision.version + 1, this.head);
  }

  x(version) {
    return PAD.left + ((W - PAD.left - PAD.right) * (version - 1)) / Math.max(1, this.head - 1);
  }

  y(win) {
    return PAD.top + (H - PAD.top - PAD.bottom) * (1 - win);
  }

  graph(result) {
    const seats = result.seats.length;
    const decisions = result.decisions;
    const grid = [0, 0.5, 1].map((p) => s("g", {}, s("line", { x1: PAD.left, x2: W - PAD.right, y1: this.y(p), y2: this.y(p), class: "grid" }), text(PAD.left - 4, this.y(p) + 4, `${p * 100}%`, { "text-anchor": "end", class: "axis" })));
    const lines = [];
    for (let seat = 0; seat < seats; seat++) {
      const points = decisions.map((d) => `${this.x(this.target(d)).toFixed(1)},${this.y(d.wins[seat]).toFixed(1)}`);
      lines.push(s("polyline", { points: points.join(" "), class: "win-line", "data-seat": seat, stroke: seatColour(seat), fill: "none" }));
    }
    const dots = decisions
      .filter((d) => d.mistake)
      .map((d) =>
        s(
          "circle",
          { cx: this.x(this.target(d)), cy: this.y(d.wins[d.seat]), r: d.mistake === "blunder" ? 5 : 4, class: `mistake-dot ${d.mistake}`, fill: seatColour(d.seat), "data-version": this.target(d), onclick: () => this.onPick(this.target(d)) },
          s("title", {}, this.describe(d)),
        ),
      );
    this.cursor = s("line", { x1: 0, x2: 0, y1: PAD.top, y2: H - PAD.bottom, class: "cursor" });
    const svg = s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, class: "win-graph-svg", role: "img", "aria-label": t("Each seat's win probability after every decision") },
      grid,
      lines,
      this.cursor,
      dots,
      text(PAD.left, H - 4, t("decisions →"), { class: "axis" }),
    );
    const legend = el("div", { class: "legend" }, result.seats.map((name, seat) => el("span", { class: `who seat-${seat % 4}` }, `■ ${name}`)));
    clear(this.nodes.graph, svg, legend);
    this.mark(this.current || this.head);
  }

  // Mistake marks on a strip under the scrubber, at their place in the game.
  strip(mistakes) {
    const marks = mistakes.map((d) => {
      const mark = el("button", {
        type: "button",
        class: `mistake-mark ${d.mistake}`,
        title: this.describe(d),
        "aria-label": this.describe(d),
        "data-version": this.target(d),
        onclick: () => this.onPick(this.target(d)),
      });
      // Through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
      mark.style.left = `${(100 * (this.target(d) - 1)) / Math.max(1, this.head - 1)}%`;
      return mark;
    });
    clear(this.nodes.strip, marks);
  }

  list(result, mistakes) {
    const accuracy = result.summary.map((seat) => el("li", {}, el("span", { class: `who seat-${seat.seat % 4}` }, seat.name), t(": accuracy {accuracy}, {count}, {count2}, {count3}", { accuracy: seat.accuracy === null ? "–" : `${seat.accuracy}%`, count: count(seat.inaccuracies, "inaccuracy", "inaccuracies"), count2: count(seat.mistakes, "mistake", "mistakes"), count3: count(seat.blunders, "blunder", "blunders") })));
    const worst = [...mistakes].sort((a, b) => (b.severity ?? b.loss) - (a.severity ?? a.loss)).slice(0, 12).sort((a, b) => a.version - b.version);
    clear(
      this.nodes.list,
      el("ul", { class: "accuracy" }, accuracy),
      worst.length ? el("h3", {}, t("Largest mistakes")) : el("p", { class: "muted" }, t("No mistakes found.")),
      el("ol", { class: "log mistakes" }, worst.map((d) => el("li", { class: `clickable ${d.mistake}` }, el("button", { type: "button", class: "link", "data-version": this.target(d), onclick: () => this.onPick(this.target(d)) }, this.describe(d))))),
    );
  }

  describe(d) {
    const who = this.seats[d.seat] ? this.seats[d.seat].name : t("Seat {seat}", { seat: d.seat });
    const lost = Math.round(d.loss * 100);
    const points = d.margin_loss.toFixed(1);
    return t("{mistake} {mistake2} by {who}, turn {turn}: {move} (−{lost}% win, −{points} points); better: {best}", { mistake: LABELS[d.mistake] || "", mistake2: d.mistake, who, turn: d.turn + 1, move: d.move_words || d.move, lost, points, best: d.best_words || d.best });
  }

  // The scrubber moved: draw where the board is on the graph.
  mark(version) {
    this.current = version;
    if (!this.cursor) return;
    const x = this.x(version);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
  }
}
