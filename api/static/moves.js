// Moves on the board: which board element each legal move involves, the elements marked as live
// (clickable, focusable, announced as buttons), the moves of a chosen element (next to it on a wide
// screen, in the action bar on a phone), a confirmation that says what a move will do before it is
// sent, the turn controls (moves that involve no element: end the action phase, stop, decline...) in
// the action bar, and the list of every legal move. The page supplies `send(move)`.
//
// What a move will do is the server's preview (GET .../moves `previews`: the engine's own events up to
// the take-back horizon, projections/preview.py): this module restates no rule of the game.
import { clear, el } from "/static/common.js";
import { AREAS, TEXT } from "/static/words.js";

const CONFIRM_KEY = "galileo:confirm-each-move";

// Whether each move is confirmed before it is sent (the player's setting, default on).
export function confirmEachMove() {
  return localStorage.getItem(CONFIRM_KEY) !== "0";
}

// The data-target keys (board.js) of the elements a move involves; [] for a turn control. `preview`:
// the move's preview, whose events say where the telescope lands and which space's action or tile a
// step takes (`catalog`: the sky's space names, for the space an event names).
export function targetsOf(move, board, preview = null, catalog = null) {
  const seat = move.seat;
  const player = board.state.players[seat];
  const space = board.state.turn.space || player.telescope;
  const tileAt = (id) => player.queue.indexOf(id);
  const told = (type) => ((preview && preview.events) || []).find((e) => e.type === type);
  switch (move.type) {
    case "Move": {
      const moved = told("TelescopeMoved");
      return moved ? [`sky:${seat}:${moved.end}`] : [];
    }
    case "TakeFixed": {  // the space whose fixed action it is (an effect may lend another's)
      const taken = told("FixedActionTaken");
      const at = taken && catalog ? catalog.starry_sky.findIndex((s) => s.id === taken.space) : -1;
      return [`sky:${seat}:${at >= 0 ? at : space}`];
    }
    case "UseTile": {  // the tile used; none at U, whose moving action is a Quadrant (UPG-2)
      const used = told("MovingActionTaken");
      const at = used && used.tile ? tileAt(used.tile) : -1;
      return [`sky:${seat}:${at >= 0 ? at : space}`];
    }
    case "Observe": {
      const [kind, card, index] = move.target.split(":");
      if (kind === "MO") return [`mo:${card}`];
      if (kind === "C") return [`c:${card}:${index}`];
      if (kind === "MOON") return [`moon:${card}`];
      return [];
    }
    case "BuyFree":
      return [`quadrants:${seat}`];
    case "Persuade":
      return [`cellar:${seat}:${move.space}`];
    case "Farewell":
      return move.accept ? player.cellar.map((_, i) => `cellar:${seat}:${i}`) : [];
    case "GainDie":
      return [`supply:${move.colour}`, ...(move.returned ? [`die:${seat}:${move.returned[0]}${move.returned[1]}`] : [])];
    case "Lecture":
    case "CollectScale":
      return [`scale:${move.tile}`];
    case "RaiseDie":
    case "Recolour":
      return [`die:${seat}:${move.die[0]}${move.die[1]}`];
    case "WriteStep":
    case "WriteComplete":
    case "RegainRow":
      return [`row:${seat}:${move.row}`];
    case "Upgrade":  // Kepler's set-aside tile can be upgraded too (CHAR-KEP-5)
      return [player.ability && move.tile === player.ability.aside ? `aside:${seat}` : `sky:${seat}:${tileAt(move.tile)}`];
    case "PlaceComet":
      return [`page:${move.page}`];
    case "BonusSpace":
      return [`bonus:${move.space}`];
    case "Relocate":
      return [`sky:${seat}:${move.space}`];
    case "SwapTiles":
      return [`sky:${seat}:${tileAt(move.first)}`, `sky:${seat}:${tileAt(move.second)}`];
    case "BonusTile":
      return [`sky:${seat}:${tileAt(move.tile)}`];
    // the characters' abilities (board.js draws their components)
    case "KeplerSwap":  // CHAR-KEP-2: two sky tiles, or the set-aside tile and a sky tile
      return [player.ability && move.first === player.ability.aside ? `aside:${seat}` : `sky:${seat}:${tileAt(move.first)}`, `sky:${seat}:${tileAt(move.second)}`];
    case "PlaceLibraryTile":  // CHAR-COP-2
      return [`libtile:${seat}:${move.tile}`, `row:${seat}:${move.row}`];
    case "ShiftMirror":  // CHAR-NEW-4 (declining involves no element)
      return move.tile ? [`sky:${seat}:${tileAt(move.tile)}`] : [];
    case "ClaimTile":  // CHAR-HEV-2/5: the offer tile and where it goes
      return [`hoffer:${seat}:${move.tile}`, `hgroup:${seat}:${move.target}`];
    case "DiscardOffer":  // CHAR-HEV-8
      return move.tiles.map((t) => `hoffer:${seat}:${t}`);
    case "Focus":  // CHAR-CUN-2/5 (leaving the round token, or the page's Move first, involves no element)
      return move.space === "-" || move.space === "later" ? [] : [`round:${seat}:${move.space}`];
    default:
      return [];  // StopObserving, EndActions, EndFreeActions, DeclineDie, StopWriting, Decline, TakeInquisitor, MoonReward, DeclineAbility
  }
}


export class MovePanel {
  // `root`: the action bar's move area; `boardContainer`: the container of the SVG board; `send(move)`:
  // posts a move; `listRoot`: where the list of every legal move goes (the side panel).
  constructor(root, boardContainer, send, listRoot = root, undo = null) {
    this.root = root;
    this.undo = undo;  // the action bar's Undo buttons (table.js), kept in the row of the turn controls
    this.listRoot = listRoot;
    this.boardContainer = boardContainer;
    this.send = send;
    this.moves = [];
    this.board = null;
    this.byTarget = new Map();
    this.selected = null;
    this.selectedNode = null;
    this.pending = null;
    this.busy = false;
    this.clicks = 0;  // clicks and key presses that chose or confirmed a move (the page reports them)
    boardContainer.addEventListener("click", (e) => this.onBoard(e));
    boardContainer.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      if (!e.target.closest || !e.target.closest(".target.live")) return;
      e.preventDefault();
      this.onBoard(e);
    });
    window.addEventListener("scroll", () => this.place(), { passive: true });
    window.addEventListener("resize", () => this.place());
    this.build();
  }

  build() {
    this.selection = el("div", { class: "selection", role: "dialog", "aria-label": TEXT.choicesLabel, hidden: true });
    this.areasBox = el("div", { class: "areas-box", "aria-live": "polite" });
    this.confirmBox = el("div", { class: "confirm", hidden: true, role: "dialog", "aria-label": TEXT.confirmLabel });
    this.controls = el("div", { class: "turn-controls moves" });
    const setting = el("input", { type: "checkbox", id: "opt-confirm", checked: confirmEachMove() });
    setting.addEventListener("change", () => localStorage.setItem(CONFIRM_KEY, setting.checked ? "1" : "0"));
    this.setting = el("label", { class: "setting" }, setting, " ", TEXT.confirmSetting);
    this.filter = el("input", { type: "search", placeholder: TEXT.filter, "aria-label": TEXT.filterLabel, oninput: () => this.renderList() });
    this.list = el("div", { class: "moves all-moves" });
    this.allBox = el("details", { class: "all" }, el("summary", { onclick: () => (this.allBox.dataset.touched = "1") }, TEXT.allMoves), el("div", { class: "row" }, this.filter), this.list);
    clear(this.root, this.selection, this.confirmBox, el("div", { class: "row bar-controls" }, this.areasBox, this.controls, this.undo, this.setting));
    clear(this.listRoot, this.allBox);
  }

  // New moves (listing of GET /moves) for a freshly drawn board.
  update(board, listing, catalog = null) {
    this.board = board;
    const previews = (listing && listing.previews) || [];
    this.moves = (listing ? listing.moves : []).map((move, i) => {
      const preview = previews[i] || null;
      return { move, preview, words: (listing.descriptions || [])[i] || move.text, targets: targetsOf(move, board, preview, catalog) };
    });
    this.byTarget = new Map();
    for (const item of this.moves) for (const key of item.targets) this.byTarget.set(key, [...(this.byTarget.get(key) || []), item]);
    this.pending = null;
    this.busy = false;
    this.confirmBox.hidden = true;
    if (this.selected && !this.byTarget.has(this.selected)) this.selected = null;
    this.mark();
    this.renderSelection();
    this.renderControls();
    this.renderList();
  }

  mark() {
    this.selectedNode = null;
    for (const node of this.boardContainer.querySelectorAll("[data-target]")) {
      const key = node.getAttribute("data-target");
      const count = (this.byTarget.get(key) || []).length;
      node.classList.toggle("live", count > 0);
      node.classList.toggle("selected", key === this.selected);
      if (key === this.selected && !this.selectedNode) this.selectedNode = node;
      if (count) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("data-moves", String(count));
      } else {
        node.removeAttribute("tabindex");
        node.removeAttribute("role");
        node.removeAttribute("data-moves");
      }
    }
  }

  onBoard(event) {
    const node = event.target.closest && event.target.closest(".target.live");
    if (!node || this.busy) return;
    this.clicks += 1;
    this.select(node.getAttribute("data-target"), node.getAttribute("aria-label"));
  }

  select(key, label) {
    this.selected = key;
    this.selectedLabel = label;
    this.mark();
    const items = this.byTarget.get(key) || [];
    if (items.length === 1) {
      this.closeSelection();
      this.choose(items[0]);
    } else this.renderSelection();
  }

  // A chosen move: asked to confirm, or sent at once when the player confirms no moves (a step that
  // wastes a reward is always asked).
  choose(item) {
    if (this.busy) return;
    if (!confirmEachMove() && !(item.preview && item.preview.warnings.length)) {
      this.pending = item;
      this.confirm();
    } else this.ask(item);
  }

  // Where the highlighted elements are, each a link that brings the first of them into view.
  areas() {
    const found = new Map();
    for (const key of this.byTarget.keys()) {
      const area = AREAS[key.split(":")[0]];
      if (area && !found.has(area)) found.set(area, key);
    }
    return Array.from(found, ([area, key]) =>
      el("button", { type: "button", class: "link area", onclick: () => this.reveal(key) }, area),
    );
  }

  reveal(key) {
    const node = this.boardContainer.querySelector(`[data-target="${CSS.escape(key)}"]`);
    if (!node) return;
    node.scrollIntoView({ block: "nearest", behavior: "smooth" });
    node.focus({ preventScroll: true });
  }

  renderSelection() {
    const items = this.selected ? this.byTarget.get(this.selected) || [] : [];
    const areas = this.areas();
    clear(this.areasBox, !items.length && areas.length ? el("p", { class: "areas" }, TEXT.highlighted, areas.flatMap((a, i) => (i ? [" · ", a] : [a]))) : null);
    if (items.length < 2) return this.closeSelection();
    clear(
      this.selection,
      el("p", {}, el("strong", {}, this.selectedLabel || TEXT.selected), ": ", TEXT.moveCount(items.length)),
      el("div", { class: "moves" }, items.map((item) => this.button(item))),
    );
    this.selection.hidden = false;
    this.place();
  }

  closeSelection() {
    this.selection.hidden = true;
    this.selection.classList.remove("pop");
  }

  // The choices of an element open next to it on a wide screen (in the action bar on a phone).
  place() {
    const node = this.selectedNode;
    const wide = window.innerWidth >= 900;
    this.selection.classList.toggle("pop", Boolean(wide && node && !this.selection.hidden));
    if (!wide || !node || this.selection.hidden) {
      this.selection.style.left = this.selection.style.top = "";
      return;
    }
    // Beside the element where there is room, else under it, else above it, else on its left: the
    // choices never cover the element itself, and cover the other board only when nothing else fits.
    const box = node.getBoundingClientRect();
    const pop = this.selection.getBoundingClientRect();
    const width = window.innerWidth;
    const floor = window.innerHeight - this.barHeight() - 8;
    const within = (v, low, high) => Math.min(Math.max(low, v), Math.max(low, high));
    let left = within(box.left, 8, width - pop.width - 8);
    let top;
    if (box.right + 8 + pop.width <= width) {
      left = box.right + 8;
      top = within(box.top, 8, floor - pop.height);
    } else if (box.bottom + 8 + pop.height <= floor) top = box.bottom + 8;
    else if (box.top - 8 - pop.height >= 8) top = box.top - 8 - pop.height;
    else {
      left = Math.max(8, box.left - 8 - pop.width);
      top = within(box.top, 8, floor - pop.height);
    }
    this.selection.style.left = `${Math.round(left)}px`;
    this.selection.style.top = `${Math.round(top)}px`;
  }

  barHeight() {
    const bar = this.root.closest(".action-bar");
    return bar ? bar.getBoundingClientRect().height : 0;
  }

  renderControls() {
    const items = this.moves.filter((m) => !m.targets.length);
    clear(this.controls, items.map((item) => this.button(item, "control")));
  }

  renderList() {
    const words = this.filter.value.trim().toLowerCase();
    const items = this.moves.filter((m) => !words || `${m.words} ${m.move.text}`.toLowerCase().includes(words));
    this.allBox.hidden = !this.moves.length;
    clear(this.list, items.map((item) => this.button(item, "listed")));
  }

  button(item, kind = "choice") {
    const warn = item.preview && item.preview.warnings.length;
    return el("button", { type: "button", class: `move ${kind}${warn ? " warns" : ""}`, title: item.move.text, "data-move": item.move.text, onclick: () => {
      this.clicks += 1;
      this.choose(item);
    } }, item.words, warn ? " ⚠" : "");
  }

  // What the move will do (the engine's preview), then Confirm (Enter) or Cancel (Escape).
  ask(item) {
    if (this.busy) return;
    this.pending = item;
    const p = item.preview || { lines: [], warnings: [], reveals: null, ends_turn: false, undoable: false };
    const confirm = el("button", { type: "button", class: "primary", "data-confirm": "yes", onclick: () => {
      this.clicks += 1;
      this.confirm();
    } }, TEXT.confirm);
    const after = [];
    if (p.reveals) after.push(TEXT.thenRevealed(p.reveals));
    const undo = p.undoable ? TEXT.undoable : p.reveals ? TEXT.finalReveals : p.ends_turn ? TEXT.finalEndsTurn : TEXT.final;
    clear(
      this.confirmBox,
      el("p", { class: "head" }, el("strong", {}, item.words)),
      p.warnings.map((w) => el("p", { class: "warning", role: "alert" }, el("strong", {}, TEXT.warning), w)),
      p.lines.length ? el("ul", { class: "will" }, p.lines.map((line) => el("li", {}, line))) : null,
      after.map((line) => el("p", { class: "then" }, line)),
      el("p", { class: p.undoable ? "muted undo-note" : "note undo-note" }, undo),
      el("div", { class: "row" }, confirm, el("button", { type: "button", onclick: () => this.cancel() }, TEXT.cancel), el("span", { class: "muted mono" }, item.move.text)),
    );
    this.confirmBox.hidden = false;
    confirm.focus({ preventScroll: true });
  }

  cancel() {
    this.pending = null;
    this.confirmBox.hidden = true;
  }

  async confirm() {
    if (!this.pending || this.busy) return;
    this.busy = true;
    for (const b of this.root.querySelectorAll("button")) b.disabled = true;
    const move = this.pending.move;
    this.selected = null;
    this.closeSelection();
    try {
      await this.send(move);
    } finally {
      this.busy = false;
      for (const b of this.root.querySelectorAll("button")) b.disabled = false;
    }
  }
}

export function installKeys(panel) {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      panel.cancel();
      panel.closeSelection();
    }
  });
}
