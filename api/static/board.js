// The board, drawn as SVG from a board view (GET /games/{id}, /games/{id}/at/{v}) and the component
// catalog (GET /catalog/{edition}): the main board (Discovery cards, comets, dice supply, University,
// objectives, reputation and score tracks, Book of Comets, Luna's Moon and Bonus board) and one player
// board per seat (the starry sky with the Action tiles and the telescope, dice, comets, Constellation
// tokens, cellar, library with Book tokens). Every element that a move can involve carries
// `data-target` (see moves.js); every element the tests compare with the view carries `data-kind`.
import { api, clear, el } from "/static/common.js";
import {
  COLOUR_NAMES, DICE, MIXES, ROMAN, ROWS, SKY, codeLabel, comet, die, inquisitor, lines, pawn, rewardShort, rewardWords, s, seatColour, text, withoutRuleIds, wrap,
} from "/static/svg.js";

// The drawing width: 1000 units on a wide screen; on a narrow one (a phone) 520, where the same
// elements wrap into more rows so that the text stays legible when the drawing is scaled down.
let W = 1000;
const NARROW = 700;
const catalogs = new Map();

// Where item `i` of a row of items `width` wide (with `gap`) goes when the drawing is W wide.
function place(i, width, gap, top, height) {
  const perRow = Math.max(1, Math.floor((W - 12 + gap) / (width + gap)));
  return { x: 6 + (i % perRow) * (width + gap), y: top + Math.floor(i / perRow) * (height + gap), rows: (n) => Math.ceil(n / perRow) };
}

// Every Action tile a player board can hold: the regular set, Kepler's special tile (DATA-16), Newton's
// tiles with his two mirrors (DATA-15) and Cunitz' tiles (DATA-20). A mirror has one option (its bonus,
// times its position's multiplier: CHAR-NEW-2).
const tileTables = new WeakMap();
export function tilesOf(catalog) {
  if (!tileTables.has(catalog)) {
    const out = Object.fromEntries(catalog.action_tiles.map((t) => [t.id, t]));
    for (const ch of catalog.characters || []) if (ch.ability && ch.ability.tile) out[ch.ability.tile.id] = { ...ch.ability.tile, special: ch.id };
    const luna = catalog.luna_characters;
    if (luna) for (const t of [...luna.newton_tiles, ...luna.cunitz_tiles]) out[t.id] = t;
    tileTables.set(catalog, out);
  }
  return tileTables.get(catalog);
}

export const abilityOf = (p) => (p.ability && p.ability.side === "ability" ? p.ability : null);
const characterOf = (catalog, id) => (catalog.characters || []).find((c) => c.id === id) || null;

export async function loadCatalog(edition) {
  if (!catalogs.has(edition)) catalogs.set(edition, api(`/catalog/${encodeURIComponent(edition)}`));
  return catalogs.get(edition);
}

// A group that a move may involve: focusable and announced as a button once moves.js marks it live.
function target(key, label, attributes, ...children) {
  return s("g", { class: "target", "data-target": key, "aria-label": label, ...attributes }, s("title", {}, label), ...children);
}

function svgRoot(height, label, ...children) {
  return s("svg", { viewBox: `0 0 ${W} ${height}`, class: "board-svg", role: "group", "aria-label": label, "font-family": "system-ui, sans-serif", "font-size": 14 }, ...children);
}

const nameOf = (board, seat) => (board.seats[seat] ? board.seats[seat].name : `seat ${seat}`);
const cardOf = (catalog, id) => catalog.cards[id];

// A line of text that never runs out of its box: squeezed to `width` when its estimated length (0.6 em a
// character, a little over the font's average) would pass it, drawn as it is otherwise.
function fitted(x, y, content, width, size, attributes = {}) {
  const words = String(content);
  const squeeze = words.length * size * 0.6 > width ? { textLength: width, lengthAdjust: "spacingAndGlyphs" } : {};
  return text(x, y, words, { ...attributes, "font-size": size, ...squeeze });
}

function majorLabel(card) {
  const m = card.major;
  return `${m.name}: ${m.mix} ${m.cost}, ${m.vp} VP${m.inquisitor ? ", an Inquisitor" : ""}`;
}

// -- the main board ------------------------------------------------------------------------------------

function discovery(board, catalog, y0) {
  const st = board.state;
  const out = [];
  const cw = 158;
  const ch = 246;
  const cometsOf = (where) => st.players.flatMap((p) => p.comets.map((c, i) => [p.seat, i, c]).filter(([, , c]) => c === where));
  const cometRow = (where, y, label) => {
    const list = cometsOf(where);
    return s(
      "g",
      { "data-kind": "comets-row", "data-where": where, "data-count": list.length },
      text(8, y + 5, label, { class: "label" }),
      list.map(([seat, index], k) => s("g", {}, s("title", {}, `${nameOf(board, seat)}'s comet ${index + 1}`), comet(250 + k * 30, y, 9, seatColour(seat)))),
    );
  };
  out.push(cometRow("sky1", y0 + 12, "Comets above the cards (+1 each):"));
  const rows = place(0, cw, 8, 0, ch).rows(board.display.length);
  board.display.forEach((card, i) => {
    const { x, y } = place(i, cw, 8, y0 + 28, ch);
    const id = st.display[i];
    if (!card || !id) {
      out.push(s("g", { "data-kind": "card", "data-space": i, "data-card": "" }, s("rect", { x, y, width: cw, height: ch, rx: 8, class: "empty-space" }), text(x + cw / 2, y + ch / 2, "empty", { "text-anchor": "middle", class: "label" })));
      return;
    }
    const full = cardOf(catalog, id);
    const major = card.major;
    const inq = full ? full.major.inquisitor : false;
    const covers = (st.covers && st.covers[i]) || [];
    const parts = [
      s("rect", { x, y, width: cw, height: ch, rx: 8, class: "card" }),
      target(
        `mo:${id}`,
        `Major Object ${majorLabel(full || { major: { ...major, inquisitor: inq } })}`,
        { "data-kind": "major", "data-card": id },
        s("rect", { x: x + 1, y: y + 1, width: cw - 2, height: 78, rx: 7, fill: MIXES[major.mix] || "#888" }),
        text(x + 8, y + 20, `Tier ${ROMAN[card.tier] || card.tier}`, { class: "on-dark small" }),
        s("g", {}, s("rect", { x: x + cw - 52, y: y + 6, width: 46, height: 20, rx: 10, fill: "#fff8d6", stroke: "#1d2433" }), text(x + cw - 29, y + 20, `${major.vp} VP`, { "text-anchor": "middle", "font-weight": "700", class: "small" })),
        fitted(x + 8, y + 42, major.name, cw - 16, major.name.length > 14 ? 14 : 16, { class: "on-dark", "font-weight": "700" }),
        text(x + 8, y + 66, `${major.mix} ${major.cost}`, { class: "on-dark small", "font-weight": "700" }),
        inq ? s("g", {}, s("title", {}, "an Inquisitor comes with it"), s("circle", { cx: x + cw - 18, cy: y + 61, r: 13, fill: "#fff" }), inquisitor(x + cw - 27, y + 50, 18)) : null,
      ),
    ];
    parts.push(text(x + cw - 8, y + ch - 8, id, { class: "tiny muted", "text-anchor": "end" }));
    const slot = (ch - 104) / Math.max(card.constellations.length, 1);
    card.constellations.forEach((c, k) => {
      const cy = y + 86 + k * slot;
      const by = covers[k];
      parts.push(
        target(
          `c:${id}:${k}`,
          `Constellation ${c.name}: ${COLOUR_NAMES[c.colour]} ${c.cost}, gives ${rewardWords(c.reward)}${by >= 0 ? `; covered by ${nameOf(board, by)}` : ""}`,
          { "data-kind": "constellation", "data-card": id, "data-index": k, "data-covered": by ?? -1 },
          s("rect", { x: x + 4, y: cy, width: cw - 8, height: slot - 6, rx: 6, class: "constellation" }),
          s("circle", { cx: x + 20, cy: cy + 18, r: 12, fill: DICE[c.colour] }),
          text(x + 20, cy + 23, c.cost, { "text-anchor": "middle", fill: c.colour === "Y" ? "#1d2433" : "#fff", "font-weight": "700" }),
          fitted(x + 38, cy + 16, c.name, cw - 46, 13, { "font-weight": "600" }),
          fitted(x + 38, cy + 34, rewardShort(c.reward), cw - 46, 12.5, { class: "small" }),
          by >= 0 ? pawn(by, x + 20, cy + 40, 8) : null,
        ),
      );
    });
    out.push(s("g", { "data-kind": "card", "data-space": i, "data-card": id }, parts));
  });
  const bottom = y0 + 28 + rows * (ch + 8) - 8;
  out.push(cometRow("sky2", bottom + 16, "Comets below the cards (+2 each):"));
  const tiers = st.deck_tiers || {};
  const deckText = st.deck_tiers
    ? `Deck ${st.deck_size} (I ${tiers["1"] ?? 0} · II ${tiers["2"] ?? 0} · III ${tiers["3"] ?? 0}) · reserve ${st.reserve_size}`
    : `Deck ${(st.deck || []).length} · reserve ${(st.reserve || []).length} (revealed)`;
  out.push(text(W < NARROW ? 8 : W - 8, W < NARROW ? bottom + 46 : y0 + 12, deckText, { "text-anchor": W < NARROW ? "start" : "end", class: "label", "data-kind": "deck", "data-deck": st.deck_size ?? (st.deck || []).length, "data-reserve": st.reserve_size ?? (st.reserve || []).length }));
  return [out, bottom - y0 + (W < NARROW ? 56 : 32)];
}

function supply(board, y) {
  const st = board.state;
  const out = [text(8, y + 22, "Dice supply:", { class: "label" })];
  ["R", "Y", "B"].forEach((colour, i) => {
    const n = st.supply[i];
    out.push(
      target(
        `supply:${colour}`,
        `${n} ${COLOUR_NAMES[colour]} ${n === 1 ? "die" : "dice"} in the supply`,
        { "data-kind": "supply", "data-colour": colour, "data-count": n },
        s("rect", { x: 104 + i * 110, y: y - 4, width: 96, height: 40, rx: 6, class: "hit" }),
        die(colour, "1", 110 + i * 110, y, 32),
        text(150 + i * 110, y + 22, `× ${n}`, { "font-weight": "700" }),
      ),
    );
  });
  return [out, 44];
}

function university(board, catalog, y0) {
  const st = board.state;
  const out = [text(8, y0 + 16, "University", { class: "heading" })];
  const tw = 242;
  const rowH = 34;
  const themes = Object.fromEntries(catalog.subject_tiles.map((t) => [t.arch, t.theme]));
  const tileH = 34 + rowH * 4 + 30;
  st.scale.forEach((faceId, slot) => {
    const { x, y } = place(slot, tw, 6, y0 + 26, tileH);
    const face = catalog.scale_tiles.flatMap((t) => t.faces).find((f) => f.id === faceId);
    const subject = st.subjects[slot];
    const parts = [
      s("rect", { x, y, width: tw, height: 34 + rowH * 4 + 30, rx: 8, class: "scale" }),
      text(x + 8, y + 22, `${themes[subject] || subject}`, { "font-weight": "700" }),
      text(x + tw - 8, y + 22, faceId, { "text-anchor": "end", class: "small muted" }),
    ];
    for (let h = 4; h >= 1; h--) {
      const ry = y + 34 + (4 - h) * rowH;
      const row = face ? face.rows[h - 1] : { multiplier: "?", reward: [] };
      parts.push(
        s("line", { x1: x, x2: x + tw, y1: ry, y2: ry, class: "rule" }),
        text(x + 8, ry + 22, `×${row.multiplier}`, { "font-weight": "700" }),
        text(x + 44, ry + 22, rewardShort(row.reward), { class: "small" }),
      );
    }
    const stairs = y + 34 + 4 * rowH;
    parts.push(s("line", { x1: x, x2: x + tw, y1: stairs, y2: stairs, class: "rule" }), text(x + 8, stairs + 20, "stairs", { class: "small muted" }));
    const here = {};
    st.players.forEach((p) => {
      const h = p.university[slot];
      const k = (here[h] = (here[h] || 0) + 1) - 1;
      const cy = h === 0 ? stairs + 15 : y + 34 + (4 - h) * rowH + rowH / 2;
      parts.push(s("g", { "data-kind": "university", "data-seat": p.seat, "data-slot": slot, "data-height": h }, s("title", {}, `${nameOf(board, p.seat)}: ${h === 0 ? "on the stairs" : `row ${h}`}`), pawn(p.seat, x + tw - 18 - k * 24, cy, 10)));
    });
    const label = `Scale tile ${slot + 1}, ${themes[subject] || subject} (${faceId}): rows ${face ? face.rows.map((r, i) => `${i + 1}: ×${r.multiplier} ${rewardWords(r.reward)}`).join("; ") : ""}`;
    out.push(target(`scale:${slot}`, label, { "data-kind": "scale", "data-slot": slot, "data-face": faceId }, parts));
  });
  return [out, 26 + place(0, tw, 6, 0, tileH).rows(st.scale.length) * (tileH + 6) + 4];
}

function objectives(board, catalog, y0) {
  const st = board.state;
  const out = [text(8, y0 + 16, `Objectives (first ${catalog.objective_first_vp} VP, later ${catalog.objective_later_vp} VP)`, { class: "heading" })];
  const ow = 242;
  st.objectives.forEach((id, i) => {
    const { x, y } = place(i, ow, 6, y0 + 26, 118);
    const o = catalog.objectives[id] || { text: id };
    const claims = st.claims[i] || [];
    out.push(
      s(
        "g",
        { "data-kind": "objective", "data-objective": id, "data-claims": claims.join(",") },
        s("title", {}, `${id}: ${withoutRuleIds(o.text)}${claims.length ? `; claimed by ${claims.map((c) => nameOf(board, c)).join(", ")}` : ""}`),
        s("rect", { x, y, width: ow, height: 118, rx: 8, class: "objective" }),
        text(x + 8, y + 18, id, { "font-weight": "700", class: "small" }),
        lines(x + 8, y + 36, withoutRuleIds(o.text), 36, 15, { class: "small" }),
        claims.map((seat, k) => pawn(seat, x + ow - 18 - k * 24, y + 18, 10)),
      ),
    );
  });
  return [out, 26 + place(0, ow, 6, 0, 118).rows(st.objectives.length) * 124];
}

function tracks(board, catalog, y0) {
  const st = board.state;
  const out = [text(8, y0 + 16, "Reputation (Tribunal track)", { class: "heading" })];
  const low = catalog.reputation_min;
  const high = catalog.reputation_max;
  const n = high - low + 1;
  const cw = (W - 12) / n;
  const y = y0 + 24;
  for (let v = low; v <= high; v++) {
    const x = 6 + (v - low) * cw;
    out.push(s("rect", { x, y, width: cw - 2, height: 44, rx: 4, class: v < 0 ? "track bad" : "track" }), text(x + cw / 2, y + 16, v, { "text-anchor": "middle", "font-weight": "700", class: "small" }), text(x + cw / 2, y + 38, `${catalog.reputation_vp[String(v)]} VP`, { "text-anchor": "middle", class: "tiny muted" }));
  }
  const at = {};
  st.players.forEach((p) => {
    const k = (at[p.reputation] = (at[p.reputation] || 0) + 1) - 1;
    const x = 6 + (p.reputation - low) * cw + cw / 2;
    out.push(s("g", { "data-kind": "reputation", "data-seat": p.seat, "data-value": p.reputation }, s("title", {}, `${nameOf(board, p.seat)}: reputation ${p.reputation}`), pawn(p.seat, x - 8 + k * 8, y + 56 + k * 4, 9)));
  });
  const sy = y + 80;
  out.push(text(8, sy + 14, "Score", { class: "heading" }));
  const best = Math.max(10, ...st.players.map((p) => p.score));
  st.players.forEach((p, i) => {
    const by = sy + 24 + i * 26;
    const width = Math.max(0, (p.score / best) * (W - 330));
    out.push(
      s(
        "g",
        { "data-kind": "score", "data-seat": p.seat, "data-score": p.score },
        s("title", {}, `${nameOf(board, p.seat)}: ${p.score} VP (${Object.entries(p.points).map(([k, v]) => `${k} ${v}`).join(", ") || "none yet"})`),
        pawn(p.seat, 18, by + 9, 9),
        text(34, by + 14, nameOf(board, p.seat), { class: "small" }),
        s("rect", { x: 200, y: by, width, height: 18, rx: 3, fill: seatColour(p.seat), opacity: 0.8 }),
        text(206 + width, by + 14, `${p.score} VP`, { "font-weight": "700", class: "small" }),
      ),
    );
  });
  return [out, 24 + 80 + 24 + st.players.length * 26 + 6];
}

function bookOfComets(board, catalog, y0) {
  const st = board.state;
  const out = [text(8, y0 + 16, "Book of Comets", { class: "heading" })];
  const pages = catalog.book_pages;
  const n = pages.length + 1;
  const pw = W < NARROW ? (W - 12) / Math.ceil(n / 2) : (W - 12) / n;
  const players = st.players.length;
  pages.forEach((page, i) => {
    const { x, y } = place(i, pw - 0.01, 0.01, y0 + 24, 66);
    const by = st.pages[i];
    const usable = players >= page.min_players;
    out.push(
      target(
        `page:${page.id}`,
        `Book of Comets page ${page.id}: ${rewardWords(page.reward)}${usable ? "" : ` (needs ${page.min_players}+ players)`}${by >= 0 ? `; covered by ${nameOf(board, by)}` : ""}`,
        { "data-kind": "page", "data-page": page.id, "data-covered": by },
        s("rect", { x, y, width: pw - 3, height: 62, rx: 5, class: `page ${page.colour}${usable ? "" : " unused"}` }),
        text(x + 5, y + 15, page.id, { class: "tiny on-dark" }),
        lines(x + 5, y + 33, rewardShort(page.reward), 10, 13, { class: "small on-dark", "font-weight": "600" }),
        by >= 0 ? comet(x + pw - 16, y + 50, 8, seatColour(by)) : null,
      ),
    );
  });
  const { x, y } = place(pages.length, pw - 0.01, 0.01, y0 + 24, 66);
  out.push(
    target(
      "page:appendix",
      `Appendix: ${catalog.appendix_vp} VP per comet; ${st.players.map((p) => `${nameOf(board, p.seat)} ${p.appendix}`).join(", ")}`,
      { "data-kind": "appendix" },
      s("rect", { x, y, width: pw - 3, height: 62, rx: 5, class: "page appendix" }),
      text(x + 5, y + 15, "Appendix", { class: "tiny" }),
      text(x + 5, y + 31, `${catalog.appendix_vp} VP each`, { class: "tiny" }),
      st.players.map((p, k) => (p.appendix ? s("g", { "data-kind": "appendix-count", "data-seat": p.seat, "data-count": p.appendix }, comet(x + 16 + k * 20, y + 50, 7, seatColour(p.seat)), text(x + 22 + k * 20, y + 46, p.appendix, { class: "tiny" })) : null)),
    ),
  );
  return [out, 24 + place(0, pw - 0.01, 0.01, 0, 66).rows(n) * 66.01 + 6];
}

function luna(board, catalog, y0) {
  const st = board.state;
  const moon = st.luna;
  // LUNA-22: an observation of the Moon costs the number on the top Observation tile (the state's stack,
  // top first), whichever Moon tile is chosen: one cost for all of them, never a cost per tile.
  const cost = moon.costs.length ? `the next observation costs ${moon.costs[0]}` : "no Observation tile left";
  const out = [
    text(8, y0 + 16, W < NARROW ? `Luna (phase ${moon.phase}, side ${moon.side})` : `Luna: the Moon (phase ${moon.phase}), Scoring tiles and the Bonus board (side ${moon.side})`, { class: "heading" }),
    text(W - 8, y0 + 16, `Moon: ${cost}`, { class: "small", "text-anchor": "end", "font-weight": "700", "data-kind": "moon-cost", "data-cost": moon.costs.length ? moon.costs[0] : "" }),
  ];
  const tiles = catalog.luna.moon_tiles;
  const scoring = Object.fromEntries(catalog.luna.scoring_tiles.map((t) => [t.id, t]));
  const tw = 104;
  tiles.forEach((tile, i) => {
    const { x, y } = place(i, tw, 6, y0 + 26, 96);
    const on = moon.scoring[i];
    const score = scoring[on];
    const taken = moon.flipped && moon.flipped[i];
    out.push(
      target(
        `moon:${tile.id}`,
        `Moon tile ${tile.id} (phase ${tile.column}): ${rewardWords(tile.reward)}; Scoring tile ${on === "?" ? "face down" : score ? score.name : on || "none"}`,
        { "data-kind": "moon", "data-tile": tile.id, "data-scoring": on ?? "" },
        s("rect", { x, y, width: tw, height: 96, rx: 6, class: `moon${tile.column <= moon.phase ? " open" : ""}${taken ? " taken" : ""}` }),
        text(x + 6, y + 16, `${tile.id} · phase ${tile.column}`, { class: "small", "font-weight": "700" }),
        lines(x + 6, y + 34, rewardShort(tile.reward), 15, 13, { class: "tiny" }),
        lines(x + 6, y + 64, on === "?" ? "Scoring: face down" : score ? score.name : on ? on : "–", 16, 12, { class: "tiny muted" }),
      ),
    );
  });
  const by = y0 + 26 + place(0, tw, 6, 0, 96).rows(tiles.length) * 102 + 6;
  const spaces = catalog.luna.bonus_boards[moon.side] || [];
  const bw = 104;
  spaces.forEach((space, i) => {
    const { x, y: sy } = place(i, bw, 6, by, 62);
    const seats = moon.bonus[i] || [];
    out.push(
      target(
        `bonus:${space.space}`,
        `Bonus board space ${space.space}: ${rewardWords(space.reward)}${space.requires ? ` (needs a ${space.requires})` : ""}${seats.length ? `; ${seats.map((x) => nameOf(board, x)).join(", ")}` : ""}`,
        { "data-kind": "bonus", "data-space": space.space, "data-seats": seats.join(",") },
        s("rect", { x, y: sy, width: bw, height: 62, rx: 6, class: "bonus" }),
        text(x + 6, sy + 16, `Bonus ${space.space}`, { class: "small", "font-weight": "700" }),
        lines(x + 6, sy + 33, rewardShort(space.reward), 15, 13, { class: "tiny" }),
        seats.map((seat, k) => inquisitorPawn(seat, x + bw - 20 - k * 18, sy + 44)),
      ),
    );
  });
  return [out, by - y0 + place(0, bw, 6, 0, 62).rows(spaces.length) * 68 + 4];
}

function inquisitorPawn(seat, x, y) {
  return s("g", {}, inquisitor(x - 8, y - 10, 18, seatColour(seat), true));
}

export function mainBoard(board, catalog) {
  const parts = [];
  let y = 0;
  const add = ([items, height]) => {
    parts.push(s("g", {}, items));
    y += height;
  };
  add(discovery(board, catalog, y));
  add(supply(board, y));
  add(university(board, catalog, y));
  add(objectives(board, catalog, y));
  add(tracks(board, catalog, y));
  add(bookOfComets(board, catalog, y));
  if (board.state.luna) add(luna(board, catalog, y));
  return svgRoot(y + 6, "The main board", parts);
}

// -- a player board ------------------------------------------------------------------------------------

function sky(board, catalog, p, y0) {
  const out = [];
  const cw = 136;
  const upgraded = new Set(p.upgraded);
  const tiles = tilesOf(catalog);
  // Newton on his ability side: each position's multiplier for his special tiles (CHAR-NEW-2, AMB-34)
  const multipliers = abilityOf(p) && p.character === "newton" && catalog.luna_characters ? catalog.luna_characters.multipliers : null;
  const here = board.state.turn.seat === p.seat && board.state.turn.space ? board.state.turn.space : p.telescope;
  catalog.starry_sky.forEach((space, i) => {
    const { x, y } = place(i, cw, 4, y0 + 34, 196);
    const crossed = i < 2;
    const fixed = space.fixed.length ? space.fixed.map((r) => rewardShort(r)).join(" or ") : "–";
    const parts = [
      s("rect", { x, y, width: cw, height: 196, rx: 8, class: `sky${crossed ? " crossed" : ""}${i === here ? " here" : ""}` }),
      text(x + 8, y + 20, space.id, { "font-weight": "700" }),
      text(x + cw - 8, y + 20, crossed ? "crossed out" : fixed, { "text-anchor": "end", class: "small" }),
    ];
    let label = `Sky space ${space.id}${crossed ? " (crossed out)" : `: fixed action ${space.fixed.map((r) => rewardWords(r)).join(" or ") || "none"}`}`;
    if (i < 6) {
      const id = p.queue[i];
      const tile = tiles[id];
      const up = upgraded.has(id);
      const face = tile ? (up ? tile.upgraded : tile.basic) : [[], []];
      const counted = (board.mirror_times || []).find((m) => m.seat === p.seat && m.tile === id);  // the engine's count
      const times = counted ? counted.times : null;
      const special = tile && tile.special ? " (his special tile: never swapped)" : "";
      const name = tile ? tile.name : id;
      const body = [];
      if (tile && tile.mirror) {
        // a special tile (mirror): its bonus times the multiplier of the position it lies on
        label += `; Newton's special tile ${name} (${up ? "upgraded" : "basic"}): ${rewardWords(face[0])} × ${times} here (position ×${multipliers[i]}${up ? ` + ${tile.upgrade_bonus} upgraded` : ""})`;
        body.push(
          text(x + 14, y + 88, "bonus", { class: "option-no" }),
          lines(x + 14, y + 106, rewardShort(face[0]), 16, 14, { class: "small" }),
          text(x + 14, y + 136, `× ${times} here`, { "font-weight": "700", "data-kind": "mirror-times", "data-times": times }),
        );
      } else {
        label += `; Action tile ${name}${special} (${up ? "upgraded" : "basic"}): 1 ${rewardWords(face[0])}, 2 ${rewardWords(face[1])}`;
        body.push(
          text(x + 14, y + 88, "1", { class: "option-no" }),
          lines(x + 30, y + 88, rewardShort(face[0]), 14, 14, { class: "small" }),
          text(x + 14, y + 126, "2", { class: "option-no" }),
          lines(x + 30, y + 126, rewardShort(face[1]), 14, 14, { class: "small" }),
        );
      }
      parts.push(
        s(
          "g",
          { "data-kind": "tile", "data-seat": p.seat, "data-space": i, "data-tile": id, "data-face": up ? "upgraded" : "basic", "data-special": tile && (tile.mirror || tile.special) ? "true" : null },
          s("rect", { x: x + 6, y: y + 32, width: cw - 12, height: 122, rx: 6, class: `${up ? "tile upgraded" : "tile"}${tile && (tile.mirror || tile.special) ? " special" : ""}` }),
          text(x + 14, y + 51, name.length > 17 ? `${name.slice(0, 16)}…` : name, { "font-weight": "700", "font-size": name.length > 12 ? 12 : null }),
          text(x + 14, y + 66, `${up ? "★ upgraded" : "basic side"}${multipliers ? ` · ×${multipliers[i]}` : ""}${tile && tile.special ? " · special" : ""}`, { class: "tiny" }),
          body,
        ),
      );
    } else {
      label += `; instead of a tile: ${rewardWords(space.instead_of_tile)}`;
      parts.push(text(x + 10, y + 80, "No tile here:", { class: "small" }), text(x + 10, y + 98, `${rewardShort(space.instead_of_tile)} instead`, { class: "small", "font-weight": "600" }));
    }
    if (i === p.telescope) {
      parts.push(
        s(
          "g",
          { "data-kind": "telescope", "data-seat": p.seat, "data-space": i },
          s("title", {}, `${nameOf(board, p.seat)}'s telescope is on ${space.id}`),
          s("path", { d: `M${x + cw / 2 - 34},${y + 186} L${x + cw / 2 + 24},${y + 166} L${x + cw / 2 + 28},${y + 176} L${x + cw / 2 - 30},${y + 192} Z`, fill: seatColour(p.seat), stroke: "#1d2433" }),
          s("circle", { cx: x + cw / 2 + 26, cy: y + 171, r: 7, fill: "#fff", stroke: "#1d2433" }),
          text(x + 8, y + 182, "telescope", { class: "tiny" }),
        ),
      );
    }
    out.push(target(`sky:${p.seat}:${i}`, label, { "data-kind": "sky", "data-space": i }, parts));
  });
  out.unshift(text(8, y0 + 22, "Starry sky and Action tiles", { class: "heading" }));
  return [out, 34 + place(0, cw, 4, 0, 196).rows(catalog.starry_sky.length) * 200 + 4];
}

function resources(board, catalog, p, y0) {
  const out = [text(8, y0 + 22, "Dice", { class: "heading" })];
  const y = y0 + 32;
  p.dice.forEach(([colour, value], i) => {
    out.push(target(`die:${p.seat}:${colour}${value}`, `${COLOUR_NAMES[colour]} die showing ${value}`, { "data-kind": "die", "data-seat": p.seat, "data-colour": colour, "data-value": value }, die(colour, value, 8 + i * 52, y, 44)));
  });
  if (!p.dice.length) out.push(text(8, y + 26, "no dice", { class: "muted" }));
  out.push(
    target(
      `quadrants:${p.seat}`,
      `${p.quadrants} Quadrant tokens: free actions cost 1 to 4`,
      { "data-kind": "quadrants", "data-seat": p.seat, "data-count": p.quadrants },
      s("rect", { x: 230, y, width: 150, height: 44, rx: 6, class: "quadrant" }),
      s("path", { d: `M240,${y + 36} A26,26 0 0 1 266,${y + 10} L266,${y + 36} Z`, fill: "#c9a227", stroke: "#1d2433" }),
      text(276, y + 20, `${p.quadrants} Quadrants`, { "font-weight": "700", class: "small" }),
      text(276, y + 37, "free actions", { class: "tiny muted" }),
    ),
  );
  // Comets and Constellation tokens: seven slots each, left to right (below the dice when narrow).
  const narrow = W < NARROW;
  const cx0 = narrow ? 8 : 400;
  const cy0 = narrow ? y0 + 84 : y0;
  const tx0 = narrow ? 8 : 690;
  const ty0 = narrow ? y0 + 168 : y0;
  const states = { slot: "on the board", sky1: "above the cards (+1)", sky2: "below the cards (+2)", pending: "used twice, waiting for the Book", book: "in the Book of Comets" };
  const marks = { sky1: "+1", sky2: "+2", pending: "…", book: "book" };
  out.push(text(cx0, cy0 + 22, "Comets", { class: "heading" }));
  p.comets.forEach((state, i) => {
    const x = cx0 + i * 40;
    const y = cy0 + 32;
    out.push(
      s(
        "g",
        { "data-kind": "comet", "data-seat": p.seat, "data-index": i, "data-state": state },
        s("title", {}, `Comet ${i + 1}: ${states[state] || state}`),
        s("rect", { x, y, width: 36, height: 44, rx: 5, class: "slot" }),
        state === "slot" ? comet(x + 22, y + 18, 9, "#e8e2c4") : text(x + 18, y + 22, marks[state] || state, { class: "tiny muted", "text-anchor": "middle" }),
        text(x + 18, y + 40, i + 1, { class: "tiny muted", "text-anchor": "middle" }),
      ),
    );
  });
  out.push(text(tx0, ty0 + 22, "Constellation tokens", { class: "heading" }));
  catalog.constellation_slots.forEach((reward, i) => {
    const x = tx0 + i * 43;
    const y = ty0 + 32;
    const present = i >= p.tokens_used;
    out.push(
      s(
        "g",
        { "data-kind": "token-slot", "data-seat": p.seat, "data-index": i, "data-present": String(present) },
        s("title", {}, `Constellation token slot ${i + 1}: ${present ? "token here" : "empty"}; gives ${rewardWords(reward)} when its token leaves`),
        s("rect", { x, y, width: 40, height: 44, rx: 5, class: "slot" }),
        present ? s("path", { d: star(x + 20, y + 14, 9), fill: seatColour(p.seat), stroke: "#1d2433", "stroke-width": 0.8 }) : null,
        text(x + 20, y + 39, rewardShort(reward), { class: "tiny", "text-anchor": "middle" }),
      ),
    );
  });
  return [out, (narrow ? 168 : 0) + 32 + 52];
}

function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(" L")} Z`;
}

function cellar(board, catalog, p, y0) {
  // Bruno on his ability side: his 5-space cellar tile, with a reward on each space (CHAR-BRU-2/3, DATA-18)
  const own = abilityOf(p) && (characterOf(catalog, p.character) || {}).ability;
  const tile = own && own.cellar ? own.cellar : null;
  const archs = tile ? tile.arch : catalog.cellar_arch;
  const out = [text(8, y0 + 22, tile ? "Cellar: Bruno's cellar tile (each Inquisitor moving onto a space gains its reward)" : "Cellar (Inquisitors)", { class: "heading" })];
  const y = y0 + 32;
  const cw = Math.min(118, Math.floor((W - 16) / archs.length) - 4);
  archs.forEach((arch, i) => {
    const x = 8 + i * (cw + 4);
    const n = p.cellar[i];
    const g = p.grand[i] || 0;
    const bottom = tile ? tile.bottom[i] : catalog.cellar_bottom[i];
    const reward = tile ? tile.rewards[i] : [];
    const figures = [];
    for (let k = 0; k < n; k++) figures.push(inquisitor(x + 8 + (k % 5) * 20, y + 24 + Math.floor(k / 5) * 22, 18));
    for (let k = 0; k < g; k++) figures.push(s("g", { "data-kind": "grand-figure" }, inquisitor(x + 8 + ((n + k) % 5) * 20, y + 24 + Math.floor((n + k) / 5) * 22, 18, "#3a1060", true)));
    const label = `Cellar space C${i + 1}: ${n} Inquisitor${n === 1 ? "" : "s"}${g ? ` and ${g} Grand Inquisitor${g === 1 ? "" : "s"}` : ""}; interrogation ${arch}, end of game ${bottom} VP each${tile ? `; an Inquisitor moving here gains ${rewardWords(reward)}` : ""}`;
    out.push(
      target(
        `cellar:${p.seat}:${i}`,
        label,
        { "data-kind": "cellar", "data-seat": p.seat, "data-space": i, "data-count": n, "data-grand": g, "data-reward": tile ? reward.join(" ") : null },
        s("rect", { x, y, width: cw, height: 78, rx: 6, class: tile ? "cellar tile-cellar" : "cellar" }),
        text(x + 6, y + 16, `C${i + 1}`, { "font-weight": "700", class: "small" }),
        text(x + cw - 6, y + 16, `${arch > 0 ? "+" : ""}${arch} / ${bottom} VP`, { "text-anchor": "end", class: "tiny" }),
        figures,
        tile ? text(x + 6, y + 72, reward.length ? `→ ${rewardShort(reward)}` : "no reward", { class: "tiny", "font-weight": "600" }) : null,
        n + g === 0 ? text(x + cw / 2, y + 50, "empty", { "text-anchor": "middle", class: "tiny muted" }) : null,
      ),
    );
  });
  out.push(
    s(
      "g",
      { "data-kind": "appendix-of", "data-seat": p.seat, "data-count": p.appendix },
      text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 100 : y + 20, `Appendix: ${p.appendix} comet${p.appendix === 1 ? "" : "s"}`, { class: "small" }),
      text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 118 : y + 40, `Reputation ${p.reputation} · ${p.achievements.length ? `claimed ${p.achievements.join(", ")}` : "no objective yet"}`, { class: "small" }),
      p.moon ? text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 136 : y + 60, `Moon observations: ${p.moon}`, { class: "small" }) : null,
    ),
  );
  return [out, 32 + (W < NARROW || tile ? 146 : 86)];
}

function library(board, catalog, p, y0) {
  const out = [text(8, y0 + 22, "Library and Book tokens", { class: "heading" })];
  const y = y0 + 32;
  const cards = p.library;
  const spaces = 2 + cards.length;
  const sw = Math.min(96, (W - 60) / spaces);
  const rh = 40;
  // Card headers: one column per library card, in acquisition order.
  cards.forEach(([id, dark], k) => {
    const x = 50 + (k + 2) * sw;
    const hidden = String(id).startsWith("hidden:");
    const card = hidden ? null : cardOf(catalog, id);
    const head = hidden ? `? tier ${String(id).slice(7)}` : card ? card.major.name : id;
    out.push(
      s(
        "g",
        { "data-kind": "library-card", "data-seat": p.seat, "data-card": id, "data-dark": String(dark) },
        s("title", {}, hidden ? `A face-down tier ${String(id).slice(7)} card (only its owner sees its front)` : `${card ? card.major.name : id} (${id}), ${dark ? "observed: dark side up" : "face down: light side up"}`),
        s("rect", { x: x + 2, y, width: sw - 4, height: 22, rx: 4, class: dark ? "lib-head dark" : "lib-head light" }),
        text(x + sw / 2, y + 15, head.length > 12 ? `${head.slice(0, 11)}…` : head, { "text-anchor": "middle", class: dark ? "tiny on-dark" : "tiny" }),
      ),
    );
  });
  out.push(text(50 + sw / 2, y + 15, "start", { "text-anchor": "middle", class: "tiny muted" }), text(50 + sw * 1.5, y + 15, "printed", { "text-anchor": "middle", class: "tiny muted" }));
  const covered = libraryCovers(catalog, p);
  ROWS.forEach((row, r) => {
    const ry = y + 26 + r * rh;
    const parts = [s("rect", { x: 2, y: ry - 2, width: 48 + spaces * sw, height: rh, rx: 6, class: "hit" }), text(8, ry + 25, row, { "font-weight": "700" })];
    for (let k = 0; k < spaces; k++) {
      const x = 50 + k * sw;
      let reward = null;
      if (k === 1) reward = catalog.library_printed[r];
      else if (k >= 2) {
        const [id, dark] = cards[k - 2];
        const card = String(id).startsWith("hidden:") ? null : cardOf(catalog, id);
        reward = card ? (dark ? card.front : card.back)[r] : null;
      }
      const cover = covered.get(`${r}:${k}`);
      if (cover) reward = cover.reward;  // CHAR-COP-4: a library tile's reward replaces the space's
      parts.push(s("rect", { x: x + 2, y: ry, width: sw - 4, height: rh - 4, rx: 4, class: k === 0 ? "space start" : cover ? "space covered" : "space" }));
      if (cover) parts.push(s("g", { "data-kind": "library-cover", "data-seat": p.seat, "data-tile": cover.tile, "data-row": r, "data-column": k }, s("title", {}, `Library tile ${cover.tile} (face ${cover.face}) covers this space: ${rewardWords(cover.reward)}`), text(x + 6, ry + 11, cover.tile, { class: "tiny muted" })));
      if (k >= 1) parts.push(text(x + sw / 2, ry + 25, reward === null ? "?" : rewardShort(reward), { "text-anchor": "middle", class: "tiny", "font-weight": cover ? "700" : null }));
    }
    const pos = p.books[r];
    const bx = 50 + Math.min(pos, spaces - 1) * sw + sw / 2;
    parts.push(
      s(
        "g",
        { "data-kind": "book", "data-seat": p.seat, "data-row": r, "data-position": pos },
        s("title", {}, `${row} Book token on space ${pos}`),
        s("rect", { x: bx - 13, y: ry + 2, width: 26, height: 10, rx: 2, fill: seatColour(p.seat), stroke: "#1d2433" }),
      ),
    );
    const label = `Library row ${row}: Book token on space ${pos} of ${spaces - 1}; next ${pos + 1 < spaces ? (pos + 1 === 1 ? rewardWords(catalog.library_printed[r]) : "a card's space") : "the end of the row"}`;
    out.push(target(`row:${p.seat}:${r}`, label, { "data-kind": "row", "data-row": r }, parts));
  });
  return [out, 32 + 26 + rh * 4 + 8];
}

// Copernicus' placed library tiles (CHAR-COP-2..4): "row:column" -> the tile covering it and its reward.
function libraryCovers(catalog, p) {
  const out = new Map();
  const ability = abilityOf(p);
  const own = ability && ability.library.length ? (characterOf(catalog, p.character) || {}).ability : null;
  if (!own) return out;
  const tiles = Object.fromEntries(own.library_tiles.map((t) => [t.id, t]));
  for (const [id, face, column, row] of ability.library) {
    const tile = tiles[id];
    if (!tile) continue;
    tile.faces[face].forEach((reward, k) => out.set(`${row + k}:${column}`, { tile: id, face, reward }));
  }
  return out;
}

// -- the ability side's own components (digest §17) ----------------------------------------------------

const CONDITIONS = {
  "INC:R": "increase red dice",
  "INC:Y": "increase yellow dice",
  "INC:B": "increase blue dice",
  "1D": "one die +",
  Q: "gain a Quadrant",
  LEC: "a Lecture",
  PER: "persuade",
  DIE: "gain a die",
  WRITE: "write",
  SPOT: "spot a comet",
  UPG: "upgrade a tile",
  FW: "a Farewell",
  "OBS:constellation": "observe a constellation",
  "OBS:major": "observe a Major Object",
};
const conditionWords = (code) => CONDITIONS[code] || code;

function box(x, y, width, height, cls, ...children) {
  return [s("rect", { x, y, width, height, rx: 6, class: cls }), ...children];
}

// The personal Book-of-Comets pages (CHAR-3, BOC-5): a comet may go on them instead of a shared page.
function personalPages(board, catalog, p, own, y0) {
  const ability = abilityOf(p);
  const out = [text(8, y0 + 16, "Personal Book of Comets pages", { class: "label" })];
  own.pages.forEach((page, i) => {
    const x = 8 + i * 170;
    const covered = ability.pages.includes(page.id);
    out.push(
      target(
        `page:${page.id}`,
        `${nameOf(board, p.seat)}'s personal page ${page.id}: ${rewardWords(page.reward)}${covered ? "; covered by a comet" : "; free"}`,
        { "data-kind": "personal-page", "data-seat": p.seat, "data-page": page.id, "data-covered": String(covered) },
        ...box(x, y0 + 24, 160, 54, "page personal"),
        text(x + 6, y0 + 40, page.id, { class: "tiny", "font-weight": "700" }),
        lines(x + 6, y0 + 57, rewardShort(page.reward), 22, 13, { class: "small" }),
        covered ? comet(x + 144, y0 + 40, 8, seatColour(p.seat)) : null,
      ),
    );
  });
  return [out, 84];
}

function keplerAside(board, catalog, p, y0) {
  const id = abilityOf(p).aside;
  const tile = tilesOf(catalog)[id];
  const up = p.upgraded.includes(id);
  const face = tile ? (up ? tile.upgraded : tile.basic) : [[], []];
  const label = `Set aside on Kepler's character board: ${tile ? tile.name : id} (${up ? "upgraded" : "basic"}): 1 ${rewardWords(face[0])}, 2 ${rewardWords(face[1])}. His special tile swaps it with a tile of the sky (option 2), or two tiles of the sky (option 1); the special tile itself is never swapped`;
  return [
    [
      target(
        `aside:${p.seat}`,
        label,
        { "data-kind": "aside", "data-seat": p.seat, "data-tile": id, "data-face": up ? "upgraded" : "basic" },
        ...box(8, y0 + 8, 250, 84, up ? "tile upgraded" : "tile"),
        text(16, y0 + 26, `Character board: ${tile ? tile.name : id} (${id})`, { "font-weight": "700", class: "small" }),
        text(16, y0 + 42, `${up ? "★ upgraded" : "basic side"} · set aside`, { class: "tiny" }),
        text(16, y0 + 62, `1 ${rewardShort(face[0])}`, { class: "small" }),
        text(16, y0 + 82, `2 ${rewardShort(face[1])}`, { class: "small" }),
      ),
      lines(W < NARROW ? 8 : 276, W < NARROW ? y0 + 112 : y0 + 30, "Kepler's special tile swaps two tiles of the sky (option 1) or a sky tile with this one (option 2); it is never swapped itself.", W < NARROW ? 70 : 90, 15, { class: "small muted" }),
    ],
    W < NARROW ? 140 : 98,
  ];
}

function copernicusTiles(board, catalog, p, own, y0) {
  const placed = new Map(abilityOf(p).library.map(([id, face, column, row]) => [id, { face, column, row }]));
  const out = [text(8, y0 + 16, "Library tiles (one per turn, free; covered spaces give the tile's reward)", { class: "label" })];
  own.library_tiles.forEach((tile, i) => {
    const { x, y } = place(i, 230, 8, y0 + 24, 92);
    const at = placed.get(tile.id);
    const faces = Object.entries(tile.faces).map(([face, rows]) => `face ${face}: ${rows.map((r) => rewardShort(r)).join(" / ")}`);
    const where = at ? `placed face ${at.face} up on column ${at.column}, ${ROWS[at.row]}` : "not placed yet";
    out.push(
      target(
        `libtile:${p.seat}:${tile.id}`,
        `Library tile ${tile.id} (${tile.rows} row${tile.rows === 1 ? "" : "s"}): ${faces.join("; ")}; ${where}`,
        { "data-kind": "library-tile", "data-seat": p.seat, "data-tile": tile.id, "data-placed": at ? `${at.face}:${at.column}:${at.row}` : "" },
        ...box(x, y, 230, 88, at ? "tile placed" : "tile"),
        text(x + 8, y + 18, `${tile.id} · ${tile.rows} row${tile.rows === 1 ? "" : "s"}`, { "font-weight": "700", class: "small" }),
        faces.map((f, k) => text(x + 8, y + 38 + k * 17, f, { class: "tiny" })),
        text(x + 8, y + 80, where, { class: "tiny muted" }),
      ),
    );
  });
  return [out, 26 + place(0, 230, 8, 0, 92).rows(own.library_tiles.length) * 100];
}

function heveliusArea(board, catalog, p, y0) {
  const h = p.hevelius;
  const luna = catalog.luna_characters;
  const tiles = Object.fromEntries(luna.hevelius_tiles.map((t) => [t.id, t]));
  const stars = (ids) => ids.reduce((n, id) => n + (tiles[id] ? tiles[id].stars : 0), 0);
  const open = (ids) => ids.reduce((n, id) => n + (tiles[id] ? tiles[id].connections : 0), 0) - 2 * (ids.length - 1);
  const band = (n) => luna.bands.reduce((best, [least, reward]) => (n >= least ? reward : best), []);
  const tileText = (id) => (tiles[id] ? `${"★".repeat(tiles[id].stars)} ${tiles[id].connections} conn. · ${conditionWords(tiles[id].condition)}` : id);
  const now = h.turn === board.state.turn.number;  // `performed` and `claimed` belong to turn `h.turn`
  const performed = now ? h.performed : [];
  const revealed = h.deck.length && !h.deck.includes("?");  // the deck's order is public once the game has ended
  const out = [
    revealed ? s("g", { "data-kind": "hevelius-deck-order", "data-seat": p.seat }, s("title", {}, `Her deck from the top (revealed at the end): ${h.deck.join(", ")}`)) : null,
    text(8, y0 + 16, `Constellation tiles: deck ${h.deck.length} face down${revealed ? ` (revealed: ${h.deck.slice(0, 6).join(", ")}${h.deck.length > 6 ? "…" : ""})` : ""} · discard pile ${h.discard.length} · this turn ${performed.length ? performed.map(conditionWords).join(", ") : "nothing performed yet"}${now && h.claimed ? " · a tile claimed this turn" : ""}`, { class: "label", "data-kind": "hevelius-deck", "data-seat": p.seat, "data-deck": h.deck.length, "data-discard": h.discard.length }),
    text(8, y0 + 38, "Offer (claim one whose action you performed this turn):", { class: "small" }),
  ];
  h.offer.forEach((id, i) => {
    const { x, y } = place(i, 220, 8, y0 + 46, 62);
    const t = tiles[id];
    out.push(
      target(
        `hoffer:${p.seat}:${id}`,
        `Offer tile ${id}: ${t ? `${t.stars} star${t.stars === 1 ? "" : "s"}, ${t.connections} connection${t.connections === 1 ? "" : "s"}, condition: ${conditionWords(t.condition)}` : id}${performed.includes(t && t.condition) ? " (performed this turn)" : ""}`,
        { "data-kind": "hevelius-offer", "data-seat": p.seat, "data-tile": id },
        ...box(x, y, 220, 58, "tile"),
        text(x + 8, y + 18, id, { "font-weight": "700", class: "small" }),
        text(x + 8, y + 36, t ? `${"★".repeat(t.stars)} · ${t.connections} connection${t.connections === 1 ? "" : "s"}` : "", { class: "small" }),
        text(x + 8, y + 52, t ? `if: ${conditionWords(t.condition)}` : "", { class: "tiny" }),
      ),
    );
  });
  let y = y0 + 46 + place(0, 220, 8, 0, 62).rows(Math.max(1, h.offer.length)) * 66;
  out.push(text(8, y + 16, "Constellations in progress (a claimed tile starts a new one or extends one through an open connection):", { class: "small" }));
  const groups = [...h.constellations.map((ids, k) => ({ ids, k: k + 1 })), { ids: [], k: 0 }];
  groups.forEach(({ ids, k }, i) => {
    const { x, y: gy } = place(i, 236, 8, y + 24, 76);
    const n = stars(ids);
    const label = k === 0 ? "A new constellation (place a claimed tile here to start one)" : `Constellation ${k}: ${ids.join(", ")}; ${n} star${n === 1 ? "" : "s"}, ${open(ids)} open connection${open(ids) === 1 ? "" : "s"}; complete now it would give ${rewardWords(band(n))}`;
    out.push(
      target(
        `hgroup:${p.seat}:${k}`,
        label,
        { "data-kind": "hevelius-constellation", "data-seat": p.seat, "data-index": k, "data-tiles": ids.join(","), "data-stars": n, "data-open": k ? open(ids) : "" },
        ...box(x, gy, 236, 72, k ? "constellation-tiles" : "constellation-tiles new"),
        text(x + 8, gy + 18, k ? `Constellation ${k}: ${ids.join(" + ")}` : "+ new constellation", { "font-weight": "700", class: "small" }),
        k ? text(x + 8, gy + 36, `${n} ★ · ${open(ids)} open`, { class: "small" }) : null,
        k ? text(x + 8, gy + 54, `complete now: ${band(n).length ? rewardShort(band(n)) : "nothing"}`, { class: "tiny" }) : null,
        k ? text(x + 8, gy + 68, ids.map(tileText).join(" | ").slice(0, 40), { class: "tiny muted" }) : null,
      ),
    );
  });
  y += 24 + place(0, 236, 8, 0, 76).rows(groups.length) * 80;
  out.push(
    s(
      "g",
      { "data-kind": "hevelius-discard", "data-seat": p.seat, "data-count": h.discard.length },
      s("title", {}, `Discard pile (completed constellations and discarded offers): ${h.discard.join(", ") || "empty"}`),
      text(8, y + 14, `Discard pile (completed constellations, discarded offers): ${h.discard.join(", ") || "empty"} · ${(p.points || {}).hevelius || 0} VP from completed constellations`, { class: "tiny muted" }),
    ),
  );
  return [out, y - y0 + 22];
}

function cunitzArea(board, catalog, p, y0) {
  const u = p.urania;
  const luna = catalog.luna_characters;
  const notes = Object.fromEntries(luna.notes.map((n) => [n.id, n]));
  const out = [text(8, y0 + 16, "Urania Propitia: the round token (Focus) and the square token's track (Move)", { class: "label" })];
  // the round token's spaces: the rotating arrow (start) and the three colours (CHAR-CUN-2)
  ["", "R", "Y", "B"].forEach((colour, i) => {
    const x = 8 + i * 92;
    const on = u.round === colour;
    const name = colour ? COLOUR_NAMES[colour] : "the rotating arrow (start)";
    const parts = [
      ...box(x, y0 + 24, 86, 40, "round-space"),
      colour ? s("circle", { cx: x + 18, cy: y0 + 44, r: 11, fill: DICE[colour] }) : text(x + 18, y0 + 50, "↻", { "text-anchor": "middle", "font-size": 18 }),
      text(x + 32, y0 + 49, colour ? COLOUR_NAMES[colour] : "arrow", { class: "small" }),
      on ? s("circle", { cx: x + 77, cy: y0 + 44, r: 7, fill: seatColour(p.seat), stroke: "#1d2433", "data-kind": "round-token" }) : null,
    ];
    const attrs = { "data-kind": "round-space", "data-seat": p.seat, "data-colour": colour || "arrow", "data-token": String(on) };
    const label = `Round token space: ${name}${on ? " (the round token is here)" : ""}`;
    out.push(colour ? target(`round:${p.seat}:${colour}`, label, attrs, ...parts) : s("g", attrs, s("title", {}, label), ...parts));
  });
  let note = 0;
  const sw = 66;
  luna.track.forEach((reward, i) => {
    const { x, y } = place(i, sw, 4, y0 + 74, 74);
    const here = u.square === i;
    let label;
    let body;
    let noteId = "";
    if (reward === null) {
      noteId = u.notes[note];
      const n = notes[noteId];
      note += 1;
      if (!n) {
        label = `Track space ${i}: a Note space, its Note face down`;
        body = [text(x + sw / 2, y + 40, "?", { "text-anchor": "middle", "font-weight": "700", "font-size": 20 }), text(x + 4, y + 64, "face down", { class: "tiny muted" })];
      } else {
        label = `Track space ${i}: Note ${n.id} (${n.frame.map((c) => COLOUR_NAMES[c]).join("/")} frame): ${rewardWords(n.reward)} if the round token shows ${n.frame.map((c) => COLOUR_NAMES[c]).join(" or ")}`;
        body = [
          ...n.frame.map((c, k) => s("rect", { x: x + 4 + k * 12, y: y + 20, width: 10, height: 10, fill: DICE[c], stroke: "#1d2433", "stroke-width": 0.5 })),
          text(x + 4, y + 48, rewardShort(n.reward), { class: "tiny", "font-weight": "600" }),
          text(x + 4, y + 64, `Note ${n.id}`, { class: "tiny muted" }),
        ];
      }
    } else {
      label = `Track space ${i}: ${i === 0 ? "the start" : rewardWords(reward)}`;
      body = [lines(x + 4, y + 36, i === 0 ? "start" : rewardShort(reward), 10, 12, { class: "tiny" })];
    }
    out.push(
      s(
        "g",
        { "data-kind": "urania-space", "data-seat": p.seat, "data-index": i, "data-note": reward === null ? noteId : "", "data-square": String(here) },
        s("title", {}, `${label}${here ? "; the square token is here" : ""}`),
        ...box(x, y, sw, 70, reward === null ? "note-space" : "track-space"),
        text(x + 4, y + 14, i, { class: "tiny muted" }),
        body,
        here ? s("rect", { x: x + sw - 20, y: y + 4, width: 14, height: 14, fill: seatColour(p.seat), stroke: "#1d2433", "data-kind": "square-token" }) : null,
      ),
    );
  });
  return [out, 74 + place(0, sw, 4, 0, 74).rows(luna.track.length) * 78];
}

function sophiaArea(board, catalog, p, y0) {
  const luna = catalog.luna_characters;
  const position = p.venus.position;
  const covered = new Set(luna.venus[position] || []);
  const out = [text(8, y0 + 16, `The Sun and Venus (position ${position + 1} of ${luna.venus.length}; moves on each wrap U → S1): after an Observe she gains every reward Venus does not cover`, { class: "label", "data-kind": "venus", "data-seat": p.seat, "data-position": position })];
  luna.sun.forEach((reward, i) => {
    const x = 8 + i * 120;
    const hidden = covered.has(i);
    out.push(
      s(
        "g",
        { "data-kind": "sun-space", "data-seat": p.seat, "data-index": i, "data-covered": String(hidden) },
        s("title", {}, `Sun space ${i + 1}: ${rewardWords(reward)}${hidden ? " (covered by Venus)" : " (gained after each Observe)"}`),
        ...box(x, y0 + 24, 112, 48, hidden ? "sun covered" : "sun"),
        text(x + 8, y0 + 44, rewardShort(reward), { "font-weight": "700", class: "small" }),
        text(x + 8, y0 + 62, hidden ? "covered by Venus" : "visible", { class: "tiny" }),
      ),
    );
  });
  if (covered.size) {  // Venus over the spaces it covers
    const first = Math.min(...covered);
    const last = Math.max(...covered);
    const cx = 8 + (first * 120 + last * 120 + 112) / 2;
    const rx = ((last - first) * 120 + 112) / 2;
    out.push(s("ellipse", { cx, cy: y0 + 48, rx, ry: 27, fill: "#9aa6c4", opacity: 0.28, stroke: "#3b4a75", "stroke-width": 1.5, "pointer-events": "none" }));
  }
  return [out, 80];
}

// The character's own components on its ability side (CHAR-1); nothing on the basic side.
function characterArea(board, catalog, p, y0) {
  const ability = abilityOf(p);
  if (!ability) return [[], 0];
  const character = characterOf(catalog, p.character);
  const own = character && character.ability;
  const out = [text(8, y0 + 22, `${character ? character.name : p.character}: ability side`, { class: "heading", "data-kind": "ability-side", "data-seat": p.seat, "data-character": p.character })];
  let y = y0 + 28;
  const add = ([items, height]) => {
    out.push(s("g", {}, items));
    y += height;
  };
  if (own && own.pages.length) add(personalPages(board, catalog, p, own, y));
  if (ability.aside) add(keplerAside(board, catalog, p, y));
  if (own && own.library_tiles.length) add(copernicusTiles(board, catalog, p, own, y));
  if (p.hevelius && catalog.luna_characters) add(heveliusArea(board, catalog, p, y));
  if (p.urania && catalog.luna_characters) add(cunitzArea(board, catalog, p, y));
  if (p.venus && catalog.luna_characters) add(sophiaArea(board, catalog, p, y));
  if (p.character === "galileo") add([[lines(8, y + 14, "Galileo: each Observe may be a Major Object and one constellation, or one to three constellations.", 120, 15, { class: "small muted" })], 24]);
  return [out, y - y0 + 4];
}

// The solo Tycho Brahe's board (SOLO-21..24): his line of solo Action tiles (rows top to bottom, the
// partial ones in parentheses), his marker, and his Movement tiles (revealed ones; the stack's order is hidden).
function tychoLine(board, catalog, p, y0) {
  const t = board.tycho;
  const n = t.line.length;
  const cw = Math.floor((W - 16) / Math.min(n, W < NARROW ? 3 : 6)) - 4;
  const rowH = 13;
  const chars = Math.max(16, Math.floor((cw - 20) / 5.6));  // "tiny" text: about 5.6 units a character
  const wrapped = t.line.map((tile) => tile.rows.map((row, r) => wrap(`${r + 1}. ${row.text}`, chars)));
  const tallest = Math.max(...wrapped.map((rows) => rows.reduce((k, ls) => k + ls.length, 0) + rows.length));
  const h = 48 + tallest * rowH + 4;
  const level = t.difficulty ? ` · difficulty ${t.difficulty}` : "";
  const out = [
    text(8, y0 + 22, `Tycho's solo Action tiles · Movement tile: ${t.last || "none yet"} · ${t.stack_size} left in the stack${level}`, { class: "heading" }),
  ];
  t.line.forEach((tile, i) => {
    const { x, y } = place(i, cw, 4, y0 + 32, h);
    const here = i === t.marker;
    const parts = [
      s("rect", { x, y, width: cw, height: h, rx: 8, class: `tile${tile.upgraded ? " upgraded" : ""}${here ? " here" : ""}` }),
      text(x + 8, y + 18, `${tile.name}${here ? " ◆ marker" : ""}`, { "font-weight": "700" }),
      text(x + 8, y + 34, tile.upgraded ? "★ upgraded side" : "basic side", { class: "tiny" }),
    ];
    let ry = y + 52;
    wrapped[i].forEach((rowLines) => {
      rowLines.forEach((line, k) => parts.push(text(x + (k ? 18 : 8), ry + k * rowH, line, { class: "tiny" })));
      ry += (rowLines.length + 1) * rowH;
    });
    const label = `Tycho's tile ${tile.name} (${tile.upgraded ? "upgraded" : "basic"})${here ? ", under his marker" : ""}: ${tile.rows.map((r) => r.text).join("; ")}`;
    out.push(target(`tycho:${i}`, label, { "data-kind": "tycho-tile", "data-tile": tile.id }, parts));
  });
  const rows = place(0, cw, 4, 0, h).rows(n);
  return [out, 36 + rows * (h + 4) + 6];
}

// What Tycho has gathered (SOLO-43, SOLO-47..50): his cards (face down to the person: their tiers only),
// his Book marker, his points by source and the Movement tiles revealed so far.
function tychoHoldings(board, catalog, p, y0) {
  const t = board.tycho;
  const tiers = {};
  for (const [id] of p.library) {
    const tier = String(id).startsWith("hidden:") ? String(id).slice(7) : String((cardOf(catalog, id) || { tier: "?" }).tier);
    tiers[tier] = (tiers[tier] || 0) + 1;
  }
  const cards = Object.keys(tiers).sort().map((k) => `tier ${ROMAN[k] || k} × ${tiers[k]}`).join(", ");
  const points = Object.entries(p.points || {}).map(([k, v]) => `${k.replace(/^tycho-/, "")} ${v}`).join(", ");
  const marker = Math.max(...p.books);
  const shown = t.shown.slice(-8);
  const width = Math.min(W - 16, 980);
  const chars = Math.floor((width - 16) / 6.6);
  const rowsOf = [
    [`Cards: ${p.library.length}${cards ? ` (${cards})` : ""} · Book marker: ${marker} · ${p.score} VP${points ? ` (${points})` : ""}`, "small"],
    [`Movement tiles revealed: ${t.shown.length}${shown.length ? ` (latest: ${shown.slice().reverse().join(", ")})` : ""} · ${t.stack_size} left, order hidden`, "small"],
    [`His marker is under tile ${t.marker + 1} of ${t.line.length}; each turn he reveals a Movement tile, moves, then takes the first row whose condition holds.`, "tiny muted"],
  ].flatMap(([words, cls]) => wrap(words, cls === "small" ? chars : Math.floor(chars * 1.1)).map((line) => [line, cls]));
  const height = 12 + rowsOf.length * 18;
  const out = [
    text(8, y0 + 22, "Tycho's cards, Book marker and points", { class: "heading" }),
    s(
      "g",
      { "data-kind": "tycho-summary", "data-seat": p.seat, "data-cards": p.library.length, "data-score": p.score, "data-book": marker, "data-stack": t.stack_size },
      s("title", {}, `Tycho: ${p.library.length} cards, Book marker on ${marker}, ${p.score} VP; ${t.stack_size} Movement tiles left`),
      ...box(8, y0 + 30, width, height, "tycho-summary"),
      rowsOf.map(([line, cls], k) => text(16, y0 + 48 + k * 18, line, { class: cls })),
    ),
  ];
  return [out, 38 + height];
}

export function playerBoard(board, catalog, p) {
  const turn = board.state.turn;
  const acting = board.to_act === p.seat;
  const parts = [
    s("rect", { x: 0, y: 0, width: W, height: 40, fill: seatColour(p.seat) }),
    text(12, 27, `${nameOf(board, p.seat)} · ${p.character}`, { fill: "white", "font-weight": "700", "font-size": 18 }),
    text(W - 12, 27, `${p.score} VP · ${p.quadrants} Q${W < NARROW ? "" : ` · reputation ${p.reputation}`}${acting ? " · to act" : ""}`, { fill: "white", "text-anchor": "end", "font-weight": "600" }),
  ];
  let y = 44;
  const opponent = board.tycho && board.tycho.seat === p.seat;
  for (const part of opponent ? [tychoLine, tychoHoldings, resources, cellar] : [sky, resources, cellar, library, characterArea]) {
    const [items, height] = part(board, catalog, p, y);
    parts.push(s("g", {}, items));
    y += height;
  }
  return svgRoot(y + 4, `${nameOf(board, p.seat)}'s player board`, parts);
}

// The whole board: the main board, then the viewer's own player board first, then the others.
export function layoutFor(container) {
  return (container.clientWidth || window.innerWidth) < NARROW ? "narrow" : "wide";
}

// Calls `redraw` when the container crosses between the wide and the narrow layout.
export function onLayoutChange(container, redraw) {
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (container.dataset.layout && layoutFor(container) !== container.dataset.layout) redraw();
    }, 150);
  });
}

export function renderBoard(container, board, catalog) {
  W = layoutFor(container) === "narrow" ? 520 : 1000;
  container.dataset.layout = W < NARROW ? "narrow" : "wide";
  const players = board.state.players.slice();
  const me = board.viewer ? board.viewer.seat : null;
  const own = players.find((p) => p.seat === me) || null;
  const seatBoard = (p) =>
    el(
      "details",
      { class: "player-board", open: true, "data-seat": p.seat },
      el("summary", {}, `${nameOf(board, p.seat)} (${p.character}${abilityOf(p) ? ", ability side" : ""})${p.seat === me ? " — you" : ""}: ${p.score} VP`),
      playerBoard(board, catalog, p),
    );
  // The main board and the viewer's own board side by side on a wide screen (style.css, "the desk"),
  // the other seats' boards under them.
  container.classList.toggle("has-own", Boolean(own));
  clear(
    container,
    el("div", { class: "board-main" }, mainBoard(board, catalog)),
    own ? el("div", { class: "board-own" }, seatBoard(own)) : null,
    el("div", { class: "board-others" }, players.filter((p) => p !== own).map(seatBoard)),
  );
}

export function rewardTitle(code) {
  return codeLabel(code)[1];
}
