// Small helpers for drawing the board as SVG: elements, text, reward labels and the colours of the game.
// Plain ES module, no build step. Everything is inserted as text nodes, never as markup.
import { t, tn } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

export function s(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function text(x, y, content, attributes = {}) {
  return s("text", { x, y, ...attributes }, content);
}

// Lines of at most `width` characters (SVG text does not wrap by itself).
// CJK characters take two columns and a line may break between any two of them (they have no spaces).
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const columns = (text) => [...text].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);

export function wrap(content, width) {
  const pieces = []; // [text, whether a space comes before it]
  for (const word of String(content).split(/\s+/)) {
    if (!word) continue;
    if (!WIDE.test(word)) pieces.push([word, true]);
    else [...word].forEach((ch, i) => pieces.push([ch, i === 0]));
  }
  const lines = [];
  let line = "";
  for (const [piece, spaced] of pieces) {
    const next = line ? `${line}${spaced ? " " : ""}${piece}` : piece;
    if (line && columns(next) > width) {
      lines.push(line);
      line = piece;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export function lines(x, y, content, width, height, attributes = {}) {
  return s("text", { x, y, ...attributes }, wrap(content, width).map((line, i) => s("tspan", { x, dy: i ? height : 0 }, line)));
}

export const DICE = { R: "#d0312d", Y: "#f0b400", B: "#2166c4" };
export const DICE_INK = { R: "#ffffff", Y: "#1d2433", B: "#ffffff" };
export const COLOUR_NAMES = { R: t("red"), Y: t("yellow"), B: t("blue") };
export const MIX_NAMES = { orange: t("orange"), green: t("green"), purple: t("purple") };
export const MIXES = { orange: "#ee7d1f", green: "#3c9a3c", purple: "#8c44ad" };
export const SEATS = ["#0f8f7a", "#7b4fc2", "#d3367d", "#8a6414"];
export const ROMAN = ["", "I", "II", "III"];
// The sky's spaces (X1..U) are the catalog's `starry_sky` ids and the library rows (R1..R4) its `library_rows`
// (GET /catalog/{edition}), not written here.

export const seatColour = (seat) => SEATS[seat % SEATS.length];

// A die's colour-blind mark, as on the dice of the game: red ●, yellow ▲, blue ■.
export function dieMark(colour, x, y, r) {
  if (colour === "R") return s("circle", { cx: x, cy: y, r: r * 0.8, class: "mark" });
  if (colour === "Y") return s("path", { d: `M${x},${y - r} L${x + r},${y + r * 0.8} L${x - r},${y + r * 0.8} Z`, class: "mark" });
  return s("rect", { x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6, class: "mark" });
}

export function die(colour, value, x, y, size, attributes = {}) {
  return s(
    "g",
    { class: "die", ...attributes },
    s("rect", { x, y, width: size, height: size, rx: size * 0.18, fill: DICE[colour] || "#999", stroke: "#1d2433", "stroke-width": 1.5 }),
    text(x + size * 0.42, y + size * 0.72, value, { "font-size": size * 0.6, "font-weight": "700", fill: DICE_INK[colour] || "#000", "text-anchor": "middle" }),
    s("g", { fill: DICE_INK[colour] || "#000", opacity: 0.9 }, dieMark(colour, x + size * 0.8, y + size * 0.2, size * 0.09)),
  );
}

// An Inquisitor figure (hood and robe); `grand` draws the Grand Inquisitor's mitre.
export function inquisitor(x, y, size, fill = "#5a1f1f", grand = false) {
  const h = size;
  return s(
    "g",
    { class: "inquisitor" },
    s("path", { d: `M${x},${y + h} L${x + h * 0.5},${y + h * 0.25} L${x + h},${y + h} Z`, fill }),
    s("circle", { cx: x + h * 0.5, cy: y + h * 0.25, r: h * 0.2, fill }),
    grand ? s("path", { d: `M${x + h * 0.3},${y + h * 0.12} L${x + h * 0.5},${y - h * 0.15} L${x + h * 0.7},${y + h * 0.12} Z`, fill: "#c9a227" }) : null,
  );
}

export function comet(x, y, size, fill = "#e8e2c4") {
  return s(
    "g",
    { class: "comet" },
    s("path", { d: `M${x - size * 1.6},${y - size * 0.7} L${x},${y - size * 0.45} L${x},${y + size * 0.45} Z`, fill, opacity: 0.7 }),
    s("circle", { cx: x, cy: y, r: size * 0.55, fill, stroke: "#1d2433", "stroke-width": 0.8 }),
  );
}

export function pawn(seat, x, y, r, label = null) {
  return s(
    "g",
    { class: "pawn" },
    s("circle", { cx: x, cy: y, r, fill: seatColour(seat), stroke: "white", "stroke-width": 1.5 }),
    text(x, y + r * 0.4, label === null ? seat : label, { "font-size": r * 1.1, fill: "white", "text-anchor": "middle", "font-weight": "700" }),
  );
}

// -- reward codes (docs/catalog.md, "Reward codes") --------------------------------------------------

const SIMPLE = {
  Q: ["Q", t("a Quadrant")],
  PER: [t("Persuade"), t("persuade an Inquisitor")],
  DIE: [t("Die"), t("gain a die")],
  LEC: [t("Lecture"), t("a Lecture")],
  INQ: [t("Inquisitor"), t("gain an Inquisitor")],
  FW: [t("Farewell"), t("an Inquisitor's Farewell")],
  CARD: [t("Card"), t("take a face-down card")],
  WC: [t("Write all"), t("complete writing")],
  UPG: [t("Upgrade"), t("upgrade an Action tile")],
  SPOT: [t("Spot"), t("spot a comet")],
  OBS: [t("Observe"), t("observe")],
  REREAD: [t("Reread"), t("regain a library row's rewards")],
  ANYTILE: [t("Any tile"), t("the moving action of any Action tile")],
  SWAP: [t("Swap"), t("swap two Action tiles")],
  RELOCATE: [t("Relocate"), t("move the telescope to any space")],
  ADVANCE: [t("Advance"), t("advance an Inquisitor to the last space")],
  BOOKVP: [t("Book VP"), t("VP for the Book tokens")],
  SCALEREWARDS: [t("Scales"), t("collect Scale rewards")],
  // the characters' abilities (digest §17)
  "KSWAP:board": [t("Swap 2 sky tiles"), t("swap two Action tiles of the sky (Kepler)")],
  "KSWAP:aside": [t("Swap with aside"), t("swap the set-aside tile with a sky tile (Kepler)")],
  PER2D: [t("Persuade 2 ×2"), t("persuade two different Inquisitors up to 2 spaces each")],
  NSHIFT: [t("Mirror forward"), t("move a special tile up to 2 positions forward")],
  NVP: [t("2 VP × mirror"), t("2 VP times the higher special tile's multiplier")],
  FOCUS: [t("Focus"), t("Focus: the round token onto the increase's colour")],
  FOCUSANY: [t("Focus any"), t("Focus: the round token onto any colour")],
};

// What each reward code stands for, as the engine's grammar reads it (domain/catalog/rewards.py): the
// catalog's `reward_codes`, code -> [task kind, amount, argument] (GET /catalog/{edition}); board.js
// hands each catalog it loads to `useRewardCodes`. The grammar is not written again here.
const READINGS = new Map();

export function useRewardCodes(catalog) {
  for (const [code, reading] of Object.entries((catalog && catalog.reward_codes) || {})) READINGS.set(code, reading);
}

export function codeLabel(code) {
  if (SIMPLE[code]) return SIMPLE[code];
  const [kind, n, arg] = READINGS.get(code) || [];
  const m = String(n);
  if (kind === "VP") return [t("{m} VP", { m }), t("{m} victory points", { m })];
  if (kind === "Q") return [t("{m} Q", { m }), t("{m} Quadrants", { m })];
  if (kind === "PER") return [t("Persuade ×{m}", { m }), t("persuade {m} times", { m })];
  if (kind === "INC") return [t("all {colour} +{m}", { colour: COLOUR_NAMES[arg], m: n }), t("all {m} dice +{m2}", { m: COLOUR_NAMES[arg], m2: n })];
  if (kind === "RAISE") return [t("a die +{m}", { m }), t("one die +{m}", { m })];
  if (kind === "MOVE") return [t("Move {m}", { m }), tn("the square token {n} space on", "the square token {n} spaces on", n)];
  if (kind === "WRITE") return [t("Write {m}", { m }), t("write {m}", { m })];
  if (kind === "DIE") return [t("Die at {m}", { m }), t("a die at value {m}", { m })];
  if (kind === "FREEOBS") return [t("Free obs ≤{m}", { m }), t("observe a constellation of cost {m} or less for free", { m })];
  return [code, code];
}

export function rewardShort(reward) {
  return reward && reward.length ? reward.map((c) => codeLabel(c)[0]).join(" + ") : "–";
}

export function rewardWords(reward) {
  const words = (reward || []).map((c) => codeLabel(c)[1]);
  if (!words.length) return t("nothing");
  return words.length === 1 ? words[0] : t("{slice} and {n_words}", { slice: words.slice(0, -1).join(", "), n_words: words[words.length - 1] });
}

// Component text as printed: the catalog notes the rule that settles a wording ("(AMB-16)", "p ≥ 3,
// AMB-17"); a player reads the component, and the rules reference links sit in the history instead.
const RULE_ID = /,?\s*\b[A-Z]{2,5}(?:-[A-Z]{2,4})?-\d+(?:\.\d+)?[a-z]?\b/g;
export function withoutRuleIds(words) {
  return String(words).replace(/\(([^()]*)\)/g, (all, inside) => {
    const kept = inside.replace(RULE_ID, "").replace(/^[,;\s]+/, "").trim();
    return kept ? `(${kept})` : "";
  }).replace(/\s+([.,;])/g, "$1").replace(/\s{2,}/g, " ").trim();
}
