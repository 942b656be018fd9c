// Moves on the board: which board element each legal move involves, the elements marked as live
// (clickable, focusable, announced as buttons), the moves of a chosen element, a confirmation that says
// what a move will do before it is sent, the turn controls (moves that involve no element: end the
// action phase, stop, decline...) and the list of every legal move. The page supplies `send(move)`.
import { clear, el } from "/static/common.js";

const nextSpace = (pos) => (pos === 1 || pos === 6 ? 2 : pos + 1);  // MOV-3, MOV-5: U wraps to S1

// The data-target keys (board.js) of the elements a move involves; [] for a turn control.
export function targetsOf(move, board) {
  const seat = move.seat;
  const player = board.state.players[seat];
  const space = board.state.turn.space || player.telescope;
  const tileAt = (id) => player.queue.indexOf(id);
  switch (move.type) {
    case "Move": {
      let pos = player.telescope;
      for (let i = 0; i < move.steps; i++) pos = nextSpace(pos);
      return [`sky:${seat}:${pos}`];
    }
    case "Observe": {
      const [kind, card, index] = move.target.split(":");
      if (kind === "MO") return [`mo:${card}`];
      if (kind === "C") return [`c:${card}:${index}`];
      if (kind === "MOON") return [`moon:${card}`];
      return [];
    }
    case "TakeFixed":
    case "UseTile":
      return [`sky:${seat}:${move.type === "UseTile" && move.option === 0 ? 6 : space}`];
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

const AREAS = {
  sky: "your starry sky",
  mo: "the Discovery cards",
  c: "the Discovery cards",
  supply: "the dice supply",
  die: "your dice",
  scale: "the University",
  cellar: "your cellar",
  row: "your library",
  page: "the Book of Comets",
  quadrants: "your Quadrants (free actions)",
  moon: "the Moon",
  bonus: "the Bonus board",
  aside: "your character board",
  libtile: "your library tiles",
  hoffer: "your Constellation tile offer",
  hgroup: "your constellations",
  round: "your Urania Propitia board",
};

// Moves that take something from the game for good are marked so (all moves are final until the
// take-back of the async play issue; these are the ones that change what others can do).
const WEIGHTY = new Set(["Observe", "EndActions", "Upgrade", "Farewell", "PlaceComet", "BonusSpace", "SwapTiles", "MoonReward", "DeclineDie", "Decline", "StopObserving", "StopWriting", "KeplerSwap", "PlaceLibraryTile", "ShiftMirror", "ClaimTile", "DiscardOffer", "DeclineAbility"]);

export class MovePanel {
  // `root`: the panel's element; `board`: the container of the SVG board; `send(move)`: posts a move.
  constructor(root, boardContainer, send) {
    this.root = root;
    this.boardContainer = boardContainer;
    this.send = send;
    this.moves = [];
    this.board = null;
    this.byTarget = new Map();
    this.selected = null;
    this.pending = null;
    this.busy = false;
    boardContainer.addEventListener("click", (e) => this.onBoard(e));
    boardContainer.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      if (!e.target.closest || !e.target.closest(".target.live")) return;
      e.preventDefault();
      this.onBoard(e);
    });
    this.build();
  }

  build() {
    this.selection = el("div", { class: "selection", "aria-live": "polite" });
    this.confirmBox = el("div", { class: "confirm", hidden: true, role: "dialog", "aria-label": "Confirm the move" });
    this.controls = el("div", { class: "turn-controls moves" });
    this.filter = el("input", { type: "search", placeholder: "Filter moves", "aria-label": "Filter the legal moves", oninput: () => this.renderList() });
    this.list = el("div", { class: "moves all-moves" });
    this.allBox = el("details", { class: "all" }, el("summary", { onclick: () => (this.allBox.dataset.touched = "1") }, "All legal moves"), el("div", { class: "row" }, this.filter), this.list);
    clear(this.root, this.confirmBox, this.selection, this.controls, this.allBox);
  }

  // New moves (listing of GET /moves) for a freshly drawn board.
  update(board, listing) {
    this.board = board;
    this.moves = (listing ? listing.moves : []).map((move, i) => ({ move, words: (listing.descriptions || [])[i] || move.text, targets: targetsOf(move, board) }));
    this.byTarget = new Map();
    for (const item of this.moves) for (const key of item.targets) this.byTarget.set(key, [...(this.byTarget.get(key) || []), item]);
    this.mark();
    this.pending = null;
    this.busy = false;
    this.confirmBox.hidden = true;
    if (this.selected && !this.byTarget.has(this.selected)) this.selected = null;
    this.renderSelection();
    this.renderControls();
    this.renderList();
  }

  mark() {
    for (const node of this.boardContainer.querySelectorAll("[data-target]")) {
      const key = node.getAttribute("data-target");
      const count = (this.byTarget.get(key) || []).length;
      node.classList.toggle("live", count > 0);
      node.classList.toggle("selected", key === this.selected);
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
    this.select(node.getAttribute("data-target"), node.getAttribute("aria-label"));
  }

  select(key, label) {
    this.selected = key;
    this.selectedLabel = label;
    this.mark();
    const items = this.byTarget.get(key) || [];
    if (items.length === 1) this.ask(items[0]);
    else this.renderSelection();
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
    node.scrollIntoView({ block: "center", behavior: "smooth" });
    node.focus({ preventScroll: true });
  }

  renderSelection() {
    const items = this.selected ? this.byTarget.get(this.selected) || [] : [];
    if (!items.length) {
      const areas = this.areas();
      return clear(this.selection, areas.length ? el("p", { class: "areas" }, "Highlighted on the board: ", areas.flatMap((a, i) => (i ? [" · ", a] : [a]))) : null);
    }
    clear(
      this.selection,
      el("p", {}, el("strong", {}, this.selectedLabel || "Selected"), ": ", `${items.length} move${items.length === 1 ? "" : "s"}`),
      el("div", { class: "moves" }, items.map((item) => this.button(item))),
    );
  }

  renderControls() {
    const items = this.moves.filter((m) => !m.targets.length);
    clear(this.controls, items.map((item) => this.button(item, "control")));
  }

  renderList() {
    const words = this.filter.value.trim().toLowerCase();
    const items = this.moves.filter((m) => !words || `${m.words} ${m.move.text}`.toLowerCase().includes(words));
    this.allBox.hidden = !this.moves.length;
    if (this.moves.length && this.moves.length <= 8 && !this.allBox.dataset.touched) this.allBox.open = true;
    clear(this.list, items.map((item) => this.button(item, "listed")));
  }

  button(item, kind = "choice") {
    return el("button", { type: "button", class: `move ${kind}`, title: item.move.text, "data-move": item.move.text, onclick: () => this.ask(item) }, item.words);
  }

  // What the move will do, then Confirm (Enter) or Cancel (Escape).
  ask(item) {
    if (this.busy) return;
    this.pending = item;
    const confirm = el("button", { type: "button", class: "primary", "data-confirm": "yes", onclick: () => this.confirm() }, "Confirm");
    clear(
      this.confirmBox,
      el("p", {}, el("strong", {}, WEIGHTY.has(item.move.type) ? "This cannot be taken back: " : "This will: "), item.words),
      el("p", { class: "muted mono" }, item.move.text),
      el("div", { class: "row" }, confirm, el("button", { type: "button", onclick: () => this.cancel() }, "Cancel")),
    );
    this.confirmBox.hidden = false;
    confirm.focus();
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
    if (e.key === "Escape") panel.cancel();
  });
}
