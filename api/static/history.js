// The history of a game in words (each event item's `text`, projections/describe.py), newest first,
// filterable by seat. Used by the play page (live) and the replay page (click an event to go there).
import { clear, el, ruleLink } from "/static/common.js";
import { t } from "./i18n.js";

export class History {
  // `limit`: how many of the newest events are kept and listed (Infinity: all of them).
  constructor(root, { onPick = null, newestFirst = true, limit = 2000, foldRoutine = true } = {}) {
    this.root = root;
    this.onPick = onPick;
    this.newestFirst = newestFirst;
    this.limit = limit;
    this.items = [];
    this.seats = [];
    this.current = null;
    this.marks = new Map();  // version -> [kind, words]: the analysis' mistakes (replay page)
    this.select = el("select", { "aria-label": t("Show the events of"), onchange: () => this.render() });
    // Routine steps (the server marks them: a free-action window closed, no objective met, a turn's end)
    // are folded away unless asked for.
    this.routine = el("input", { type: "checkbox", class: "show-routine", checked: !foldRoutine, onchange: () => this.render() });
    this.list = el("ol", { class: "log history" });
    clear(root, el("div", { class: "row" }, el("label", {}, t("Show "), this.select), el("label", { class: "muted" }, this.routine, t(" routine steps"))), this.list);
  }

  setSeats(seats) {
    this.seats = seats;
    const value = this.select.value;
    clear(this.select, el("option", { value: "" }, t("every seat")), seats.map((s) => el("option", { value: s.seat }, t("{name} (seat {seat})", { name: s.name, seat: s.seat }))), el("option", { value: "game" }, t("the game itself")));
    this.select.value = value;
  }

  // Mark the events at these versions (a Map version -> [kind, words]), e.g. an analysis' mistakes.
  setMarks(marks) {
    this.marks = marks;
    this.render();
  }

  set(items) {
    this.items = items.slice(-this.limit);
    this.render();
  }

  add(item) {
    if (this.items.length && item.version <= this.items[this.items.length - 1].version) return;
    this.items.push(item);
    if (this.items.length > this.limit) this.items.shift();
    if (this.matches(item)) {
      const line = this.line(item);
      if (this.newestFirst) this.list.prepend(line);
      else this.list.append(line);
    }
  }

  matches(item) {
    const wanted = this.select.value;
    const seat = item.event ? item.event.seat : null;
    if (item.routine && !this.routine.checked) return false;
    if (wanted === "") return true;
    if (wanted === "game") return seat === null || seat === undefined;
    return String(seat) === wanted;
  }

  mark(version) {
    this.current = version;
    for (const li of this.list.children) li.classList.toggle("current", Number(li.dataset.version) === version);
    const marked = this.list.querySelector("li.current");
    if (marked) marked.scrollIntoView({ block: "nearest" });
  }

  line(item) {
    const seat = item.event ? item.event.seat : null;
    const who = seat === null || seat === undefined ? t("Game") : (this.seats[seat] || {}).name || t("Seat {seat}", { seat });
    const rule = item.event && item.event.rule ? item.event.rule : "";
    const attributes = { "data-version": item.version, class: item.version === this.current ? "current" : null };
    const content = [
      el("span", { class: "v" }, item.version),
      " ",
      el("span", { class: seat === null || seat === undefined ? "who" : `who seat-${seat % 4}` }, who),
      " ",
      item.text || item.type,
    ];
    const mark = this.marks.get(item.version);
    if (mark) content.push(" ", el("span", { class: `mistake-badge ${mark[0]}`, title: mark[1] }, mark[0]));
    const link = rule ? el("span", { class: "rule" }, " ", ruleLink(rule)) : null;
    if (!this.onPick) return el("li", attributes, content, link);
    // The rule link beside the button, never inside it (a link in a button is invalid HTML, and a click
    // on the line's middle could follow the link instead of going to the event).
    return el("li", { ...attributes, class: `clickable${item.version === this.current ? " current" : ""}` }, el("button", { type: "button", class: "link", onclick: () => this.onPick(item.version) }, content), link);
  }

  render() {
    const shown = this.items.filter((item) => this.matches(item));
    if (this.newestFirst) shown.reverse();
    clear(this.list, shown.map((item) => this.line(item)));
  }
}
