// The board, drawn as SVG from a board view (GET /games/{id}, /games/{id}/at/{v}) and the component
// catalog (GET /catalog/{edition}): the main board (Discovery cards, comets, dice supply, University,
// objectives, reputation and score tracks, Book of Comets, Luna's Moon and Bonus board) and one player
// board per seat (the starry sky with the Action tiles and the telescope, dice, comets, Constellation
// tokens, cellar, library with Book tokens). Every element that a move can involve carries
// `data-target` (see moves.js); every element the tests compare with the view carries `data-kind`.
import { api, clear, el } from "/static/common.js";
import {
  COLOUR_NAMES, DICE, MIX_NAMES, MIXES, ROMAN, codeLabel, comet, die, inquisitor, lines, pawn, rewardShort, rewardWords, s, seatColour, text, useRewardCodes, withoutRuleIds, wrap,
} from "/static/svg.js";
import { characterName, t, tn } from "./i18n.js";

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
    const out = Object.fromEntries(catalog.action_tiles.map((tl) => [tl.id, tl]));
    for (const ch of catalog.characters || []) if (ch.ability && ch.ability.tile) out[ch.ability.tile.id] = { ...ch.ability.tile, special: ch.id };
    const luna = catalog.luna_characters;
    if (luna) for (const tl of [...luna.newton_tiles, ...luna.cunitz_tiles]) out[tl.id] = tl;
    tileTables.set(catalog, out);
  }
  return tileTables.get(catalog);
}

export const abilityOf = (p) => (p.ability && p.ability.side === "ability" ? p.ability : null);
const characterOf = (catalog, id) => (catalog.characters || []).find((c) => c.id === id) || null;

export async function loadCatalog(edition) {
  if (!catalogs.has(edition)) {
    const loading = api(`/catalog/${encodeURIComponent(edition)}`).then((catalog) => (useRewardCodes(catalog), catalog));
    catalogs.set(edition, loading);
  }
  return catalogs.get(edition);
}

// A group that a move may involve: focusable and announced as a button once moves.js marks it live.
function target(key, label, attributes, ...children) {
  return s("g", { class: "target", "data-target": key, "aria-label": label, ...attributes }, s("title", {}, label), ...children);
}

function svgRoot(height, label, ...children) {
  return s("svg", { viewBox: `0 0 ${W} ${height}`, class: "board-svg", role: "group", "aria-label": label, "font-family": "system-ui, sans-serif", "font-size": 14 }, ...children);
}

const nameOf = (board, seat) => (board.seats[seat] ? board.seats[seat].name : t("seat {seat}", { seat }));
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
  return t("{name}: {mix} {cost}, {vp} VP{Inquisitor}", { name: m.name, mix: MIX_NAMES[m.mix] || m.mix, cost: m.cost, vp: m.vp, Inquisitor: m.inquisitor ? t(", an Inquisitor") : "" });
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
      list.map(([seat, index], k) => s("g", {}, s("title", {}, t("{nameOf}'s comet {index}", { nameOf: nameOf(board, seat), index: index + 1 })), comet(250 + k * 30, y, 9, seatColour(seat)))),
    );
  };
  out.push(cometRow("sky1", y0 + 12, t("Comets above the cards (+1 each):")));
  const rows = place(0, cw, 8, 0, ch).rows(board.display.length);
  board.display.forEach((card, i) => {
    const { x, y } = place(i, cw, 8, y0 + 28, ch);
    const id = st.display[i];
    if (!card || !id) {
      out.push(s("g", { "data-kind": "card", "data-space": i, "data-card": "" }, s("rect", { x, y, width: cw, height: ch, rx: 8, class: "empty-space" }), text(x + cw / 2, y + ch / 2, t("empty"), { "text-anchor": "middle", class: "label" })));
      return;
    }
    const full = cardOf(catalog, id);
    // The board view's card is the table's (English names); the catalog's is in the page's language.
    const major = full ? { ...card.major, name: full.major.name } : card.major;
    const inq = full ? full.major.inquisitor : false;
    const covers = (st.covers && st.covers[i]) || [];
    const parts = [
      s("rect", { x, y, width: cw, height: ch, rx: 8, class: "card" }),
      target(
        `mo:${id}`,
        t("Major Object {majorLabel}", { majorLabel: majorLabel(full || { major: { ...major, inquisitor: inq } }) }),
        { "data-kind": "major", "data-card": id },
        s("rect", { x: x + 1, y: y + 1, width: cw - 2, height: 78, rx: 7, fill: MIXES[major.mix] || "#888" }),
        text(x + 8, y + 20, t("Tier {tier}", { tier: ROMAN[card.tier] || card.tier }), { class: "on-dark small" }),
        s("g", {}, s("rect", { x: x + cw - 52, y: y + 6, width: 46, height: 20, rx: 10, fill: "#fff8d6", stroke: "#1d2433" }), text(x + cw - 29, y + 20, `${major.vp} VP`, { "text-anchor": "middle", "font-weight": "700", class: "small" })),
        fitted(x + 8, y + 42, major.name, cw - 16, major.name.length > 14 ? 14 : 16, { class: "on-dark", "font-weight": "700" }),
        text(x + 8, y + 66, `${MIX_NAMES[major.mix] || major.mix} ${major.cost}`, { class: "on-dark small", "font-weight": "700" }),
        inq ? s("g", {}, s("title", {}, t("an Inquisitor comes with it")), s("circle", { cx: x + cw - 18, cy: y + 61, r: 13, fill: "#fff" }), inquisitor(x + cw - 27, y + 50, 18)) : null,
      ),
    ];
    parts.push(text(x + cw - 8, y + ch - 8, id, { class: "tiny muted", "text-anchor": "end" }));
    const slot = (ch - 104) / Math.max(card.constellations.length, 1);
    card.constellations.forEach((shown, k) => {
      const c = full && full.constellations[k] ? { ...shown, name: full.constellations[k].name } : shown;
      const cy = y + 86 + k * slot;
      const by = covers[k];
      parts.push(
        target(
          `c:${id}:${k}`,
          t("Constellation {name}: {colour} {cost}, gives {rewardWords}{by}", { name: c.name, colour: COLOUR_NAMES[c.colour], cost: c.cost, rewardWords: rewardWords(c.reward), by: by >= 0 ? t("; covered by {name}", { name: nameOf(board, by) }) : "" }),
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
  out.push(cometRow("sky2", bottom + 16, t("Comets below the cards (+2 each):")));
  const tiers = st.deck_tiers || {};
  const deckText = st.deck_tiers
    ? t("Deck {deck_size} (I {tiers} · II {tiers2} · III {tiers3}) · reserve {reserve_size}", { deck_size: st.deck_size, tiers: tiers["1"] ?? 0, tiers2: tiers["2"] ?? 0, tiers3: tiers["3"] ?? 0, reserve_size: st.reserve_size })
    : t("Deck {n_deck} · reserve {n_reserve} (revealed)", { n_deck: (st.deck || []).length, n_reserve: (st.reserve || []).length });
  out.push(text(W < NARROW ? 8 : W - 8, W < NARROW ? bottom + 46 : y0 + 12, deckText, { "text-anchor": W < NARROW ? "start" : "end", class: "label", "data-kind": "deck", "data-deck": st.deck_size ?? (st.deck || []).length, "data-reserve": st.reserve_size ?? (st.reserve || []).length }));
  return [out, bottom - y0 + (W < NARROW ? 56 : 32)];
}

function supply(board, y) {
  const st = board.state;
  const out = [text(8, y + 22, t("Dice supply:"), { class: "label" })];
  ["R", "Y", "B"].forEach((colour, i) => {
    const n = st.supply[i];
    out.push(
      target(
        `supply:${colour}`,
        tn("{n} {colour} die in the supply", "{n} {colour} dice in the supply", n, { colour: COLOUR_NAMES[colour] }),
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
  const out = [text(8, y0 + 16, t("University"), { class: "heading" })];
  const tw = 242;
  const rowH = 34;
  const themes = Object.fromEntries(catalog.subject_tiles.map((tl) => [tl.arch, tl.theme]));
  const tileH = 34 + rowH * 4 + 30;
  st.scale.forEach((faceId, slot) => {
    const { x, y } = place(slot, tw, 6, y0 + 26, tileH);
    const face = catalog.scale_tiles.flatMap((tl) => tl.faces).find((f) => f.id === faceId);
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
    parts.push(s("line", { x1: x, x2: x + tw, y1: stairs, y2: stairs, class: "rule" }), text(x + 8, stairs + 20, t("stairs"), { class: "small muted" }));
    const here = {};
    st.players.forEach((p) => {
      const h = p.university[slot];
      const k = (here[h] = (here[h] || 0) + 1) - 1;
      const cy = h === 0 ? stairs + 15 : y + 34 + (4 - h) * rowH + rowH / 2;
      parts.push(s("g", { "data-kind": "university", "data-seat": p.seat, "data-slot": slot, "data-height": h }, s("title", {}, `${nameOf(board, p.seat)}: ${h === 0 ? t("on the stairs") : t("row {h}", { h })}`), pawn(p.seat, x + tw - 18 - k * 24, cy, 10)));
    });
    const label = t("Scale tile {slot}, {subject} ({faceId}): rows {face}", { slot: slot + 1, subject: themes[subject] || subject, faceId, face: face ? face.rows.map((r, i) => `${i + 1}: ×${r.multiplier} ${rewardWords(r.reward)}`).join("; ") : "" });
    out.push(target(`scale:${slot}`, label, { "data-kind": "scale", "data-slot": slot, "data-face": faceId }, parts));
  });
  return [out, 26 + place(0, tw, 6, 0, tileH).rows(st.scale.length) * (tileH + 6) + 4];
}

function objectives(board, catalog, y0) {
  const st = board.state;
  const out = [text(8, y0 + 16, t("Objectives (first {objective_first_vp} VP, later {objective_later_vp} VP)", { objective_first_vp: catalog.objective_first_vp, objective_later_vp: catalog.objective_later_vp }), { class: "heading" })];
  const ow = 242;
  st.objectives.forEach((id, i) => {
    const { x, y } = place(i, ow, 6, y0 + 26, 118);
    const o = catalog.objectives[id] || { text: id };
    const claims = st.claims[i] || [];
    out.push(
      s(
        "g",
        { "data-kind": "objective", "data-objective": id, "data-claims": claims.join(",") },
        s("title", {}, claims.length ? t("{id}: {text}; claimed by {names}", { id, text: withoutRuleIds(o.text), names: claims.map((c) => nameOf(board, c)).join(", ") }) : `${id}: ${withoutRuleIds(o.text)}`),
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
  const out = [text(8, y0 + 16, t("Reputation (Tribunal track)"), { class: "heading" })];
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
    out.push(s("g", { "data-kind": "reputation", "data-seat": p.seat, "data-value": p.reputation }, s("title", {}, t("{nameOf}: reputation {reputation}", { nameOf: nameOf(board, p.seat), reputation: p.reputation })), pawn(p.seat, x - 8 + k * 8, y + 56 + k * 4, 9)));
  });
  const sy = y + 80;
  out.push(text(8, sy + 14, t("Score"), { class: "heading" }));
  const best = Math.max(10, ...st.players.map((p) => p.score));
  st.players.forEach((p, i) => {
    const by = sy + 24 + i * 26;
    const width = Math.max(0, (p.score / best) * (W - 330));
    out.push(
      s(
        "g",
        { "data-kind": "score", "data-seat": p.seat, "data-score": p.score },
        s("title", {}, t("{nameOf}: {score} VP ({yet})", { nameOf: nameOf(board, p.seat), score: p.score, yet: Object.entries(p.points).map(([k, v]) => `${k} ${v}`).join(", ") || t("none yet") })),
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
  const out = [text(8, y0 + 16, t("Book of Comets"), { class: "heading" })];
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
        t("Book of Comets page {id}: {rewardWords}{players}{by}", { id: page.id, rewardWords: rewardWords(page.reward), players: usable ? "" : t(" (needs {min_players}+ players)", { min_players: page.min_players }), by: by >= 0 ? t("; covered by {name}", { name: nameOf(board, by) }) : "" }),
        { "data-kind": "page", "data-page": page.id, "data-covered": by },
        s("rect", { x, y, width: pw - 3, height: 62, rx: 5, class: `page ${page.colour}${usable ? "" : t(" unused")}` }),
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
      t("Appendix: {appendix_vp} VP per comet; {st}", { appendix_vp: catalog.appendix_vp, st: st.players.map((p) => `${nameOf(board, p.seat)} ${p.appendix}`).join(", ") }),
      { "data-kind": "appendix" },
      s("rect", { x, y, width: pw - 3, height: 62, rx: 5, class: "page appendix" }),
      text(x + 5, y + 15, t("Appendix"), { class: "tiny" }),
      text(x + 5, y + 31, t("{appendix_vp} VP each", { appendix_vp: catalog.appendix_vp }), { class: "tiny" }),
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
  const cost = moon.costs.length ? t("the next observation costs {cost}", { cost: moon.costs[0] }) : t("no Observation tile left");
  const out = [
    text(8, y0 + 16, W < NARROW ? `Luna (phase ${moon.phase}, side ${moon.side})` : t("Luna: the Moon (phase {phase}), Scoring tiles and the Bonus board (side {side})", { phase: moon.phase, side: moon.side }), { class: "heading" }),
    text(W - 8, y0 + 16, t("Moon: {cost}", { cost }), { class: "small", "text-anchor": "end", "font-weight": "700", "data-kind": "moon-cost", "data-cost": moon.costs.length ? moon.costs[0] : "" }),
  ];
  const tiles = catalog.luna.moon_tiles;
  const scoring = Object.fromEntries(catalog.luna.scoring_tiles.map((tl) => [tl.id, tl]));
  const tw = 104;
  tiles.forEach((tile, i) => {
    const { x, y } = place(i, tw, 6, y0 + 26, 96);
    const on = moon.scoring[i];
    const score = scoring[on];
    const taken = moon.flipped && moon.flipped[i];
    out.push(
      target(
        `moon:${tile.id}`,
        t("Moon tile {id} (phase {column}): {rewardWords}; Scoring tile {none}", { id: tile.id, column: tile.column, rewardWords: rewardWords(tile.reward), none: on === "?" ? t("face down") : score ? score.name : on || "none" }),
        { "data-kind": "moon", "data-tile": tile.id, "data-scoring": on ?? "" },
        s("rect", { x, y, width: tw, height: 96, rx: 6, class: `moon${tile.column <= moon.phase ? " open" : ""}${taken ? " taken" : ""}` }),
        text(x + 6, y + 16, t("{id} · phase {column}", { id: tile.id, column: tile.column }), { class: "small", "font-weight": "700" }),
        lines(x + 6, y + 34, rewardShort(tile.reward), 15, 13, { class: "tiny" }),
        lines(x + 6, y + 64, on === "?" ? t("Scoring: face down") : score ? score.name : on ? on : "–", 16, 12, { class: "tiny muted" }),
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
        t("Bonus board space {space}: {rewardWords}{requires}{seats}", { space: space.space, rewardWords: rewardWords(space.reward), requires: space.requires ? ` (needs a ${space.requires})` : "", seats: seats.length ? `; ${seats.map((x) => nameOf(board, x)).join(", ")}` : "" }),
        { "data-kind": "bonus", "data-space": space.space, "data-seats": seats.join(",") },
        s("rect", { x, y: sy, width: bw, height: 62, rx: 6, class: "bonus" }),
        text(x + 6, sy + 16, t("Bonus {space}", { space: space.space }), { class: "small", "font-weight": "700" }),
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
  return svgRoot(y + 6, t("The main board"), parts);
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
    const fixed = space.fixed.length ? space.fixed.map((r) => rewardShort(r)).join(t(" or ")) : "–";
    const parts = [
      s("rect", { x, y, width: cw, height: 196, rx: 8, class: `sky${crossed ? " crossed" : ""}${i === here ? " here" : ""}` }),
      text(x + 8, y + 20, space.id, { "font-weight": "700" }),
      text(x + cw - 8, y + 20, crossed ? t("crossed out") : fixed, { "text-anchor": "end", class: "small" }),
    ];
    let label = t("Sky space {id}{none}", { id: space.id, none: crossed ? t(" (crossed out)") : t(": fixed action {none}", { none: space.fixed.map((r) => rewardWords(r)).join(t(" or ")) || "none" }) });
    if (i < 6) {
      const id = p.queue[i];
      const tile = tiles[id];
      const up = upgraded.has(id);
      const face = tile ? (up ? tile.upgraded : tile.basic) : [[], []];
      const counted = (board.mirror_times || []).find((m) => m.seat === p.seat && m.tile === id);  // the engine's count
      const times = counted ? counted.times : null;
      const special = tile && tile.special ? t(" (his special tile: never swapped)") : "";
      const name = tile ? tile.name : id;
      const body = [];
      if (tile && tile.mirror) {
        // a special tile (mirror): its bonus times the multiplier of the position it lies on
        label += t("; Newton's special tile {name} ({basic}): {rewardWords} × {times} here (position ×{i}{upgraded})", { name, basic: up ? t("upgraded") : t("basic"), rewardWords: rewardWords(face[0]), times, i: multipliers[i], upgraded: up ? ` + ${tile.upgrade_bonus} upgraded` : "" });
        body.push(
          text(x + 14, y + 88, "bonus", { class: "option-no" }),
          lines(x + 14, y + 106, rewardShort(face[0]), 16, 14, { class: "small" }),
          text(x + 14, y + 136, t("× {times} here", { times }), { "font-weight": "700", "data-kind": "mirror-times", "data-times": times }),
        );
      } else {
        label += t("; Action tile {name}{special} ({basic}): 1 {rewardWords}, 2 {rewardWords2}", { name, special, basic: up ? t("upgraded") : t("basic"), rewardWords: rewardWords(face[0]), rewardWords2: rewardWords(face[1]) });
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
          text(x + 14, y + 66, `${up ? t("★ upgraded") : t("basic side")}${multipliers ? ` · ×${multipliers[i]}` : ""}${tile && tile.special ? ` · ${t("special")}` : ""}`, { class: "tiny" }),
          body,
        ),
      );
    } else {
      label += t("; instead of a tile: {rewardWords}", { rewardWords: rewardWords(space.instead_of_tile) });
      parts.push(text(x + 10, y + 80, t("No tile here:"), { class: "small" }), text(x + 10, y + 98, t("{rewardShort} instead", { rewardShort: rewardShort(space.instead_of_tile) }), { class: "small", "font-weight": "600" }));
    }
    if (i === p.telescope) {
      parts.push(
        s(
          "g",
          { "data-kind": "telescope", "data-seat": p.seat, "data-space": i },
          s("title", {}, t("{nameOf}'s telescope is on {id}", { nameOf: nameOf(board, p.seat), id: space.id })),
          s("path", { d: `M${x + cw / 2 - 34},${y + 186} L${x + cw / 2 + 24},${y + 166} L${x + cw / 2 + 28},${y + 176} L${x + cw / 2 - 30},${y + 192} Z`, fill: seatColour(p.seat), stroke: "#1d2433" }),
          s("circle", { cx: x + cw / 2 + 26, cy: y + 171, r: 7, fill: "#fff", stroke: "#1d2433" }),
          text(x + 8, y + 182, t("telescope"), { class: "tiny" }),
        ),
      );
    }
    out.push(target(`sky:${p.seat}:${i}`, label, { "data-kind": "sky", "data-space": i }, parts));
  });
  out.unshift(text(8, y0 + 22, t("Starry sky and Action tiles"), { class: "heading" }));
  return [out, 34 + place(0, cw, 4, 0, 196).rows(catalog.starry_sky.length) * 200 + 4];
}

function resources(board, catalog, p, y0) {
  const out = [text(8, y0 + 22, t("Dice"), { class: "heading" })];
  const y = y0 + 32;
  p.dice.forEach(([colour, value], i) => {
    out.push(target(`die:${p.seat}:${colour}${value}`, t("{colour} die showing {value}", { colour: COLOUR_NAMES[colour], value }), { "data-kind": "die", "data-seat": p.seat, "data-colour": colour, "data-value": value }, die(colour, value, 8 + i * 52, y, 44)));
  });
  if (!p.dice.length) out.push(text(8, y + 26, t("no dice"), { class: "muted" }));
  out.push(
    target(
      `quadrants:${p.seat}`,
      t("{quadrants} Quadrant tokens: free actions cost 1 to 4", { quadrants: p.quadrants }),
      { "data-kind": "quadrants", "data-seat": p.seat, "data-count": p.quadrants },
      s("rect", { x: 230, y, width: 150, height: 44, rx: 6, class: "quadrant" }),
      s("path", { d: `M240,${y + 36} A26,26 0 0 1 266,${y + 10} L266,${y + 36} Z`, fill: "#c9a227", stroke: "#1d2433" }),
      text(276, y + 20, t("{quadrants} Quadrants", { quadrants: p.quadrants }), { "font-weight": "700", class: "small" }),
      text(276, y + 37, t("free actions"), { class: "tiny muted" }),
    ),
  );
  // Comets and Constellation tokens: seven slots each, left to right (below the dice when narrow).
  const narrow = W < NARROW;
  const cx0 = narrow ? 8 : 400;
  const cy0 = narrow ? y0 + 84 : y0;
  const tx0 = narrow ? 8 : 690;
  const ty0 = narrow ? y0 + 168 : y0;
  const states = { slot: t("on the board"), sky1: t("above the cards (+1)"), sky2: t("below the cards (+2)"), pending: t("used twice, waiting for the Book"), book: t("in the Book of Comets") };
  const marks = { sky1: "+1", sky2: "+2", pending: "…", book: "book" };
  out.push(text(cx0, cy0 + 22, t("Comets"), { class: "heading" }));
  p.comets.forEach((state, i) => {
    const x = cx0 + i * 40;
    const y = cy0 + 32;
    out.push(
      s(
        "g",
        { "data-kind": "comet", "data-seat": p.seat, "data-index": i, "data-state": state },
        s("title", {}, t("Comet {i}: {state}", { i: i + 1, state: states[state] || state })),
        s("rect", { x, y, width: 36, height: 44, rx: 5, class: "slot" }),
        state === "slot" ? comet(x + 22, y + 18, 9, "#e8e2c4") : text(x + 18, y + 22, marks[state] || state, { class: "tiny muted", "text-anchor": "middle" }),
        text(x + 18, y + 40, i + 1, { class: "tiny muted", "text-anchor": "middle" }),
      ),
    );
  });
  out.push(text(tx0, ty0 + 22, t("Constellation tokens"), { class: "heading" }));
  catalog.constellation_slots.forEach((reward, i) => {
    const x = tx0 + i * 43;
    const y = ty0 + 32;
    const present = i >= p.tokens_used;
    out.push(
      s(
        "g",
        { "data-kind": "token-slot", "data-seat": p.seat, "data-index": i, "data-present": String(present) },
        s("title", {}, t("Constellation token slot {i}: {empty}; gives {rewardWords} when its token leaves", { i: i + 1, empty: present ? t("token here") : t("empty"), rewardWords: rewardWords(reward) })),
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
  const out = [text(8, y0 + 22, tile ? t("Cellar: Bruno's cellar tile (each Inquisitor moving onto a space gains its reward)") : t("Cellar (Inquisitors)"), { class: "heading" })];
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
    const label = t("Cellar space C{i}: {inquisitors}{grand}; interrogation {arch}, end of game {bottom} VP each{reward}", { i: i + 1, inquisitors: tn("{n} Inquisitor", "{n} Inquisitors", n), grand: g ? tn(" and {n} Grand Inquisitor", " and {n} Grand Inquisitors", g) : "", arch, bottom, reward: tile ? t("; an Inquisitor moving here gains {reward}", { reward: rewardWords(reward) }) : "" });
    out.push(
      target(
        `cellar:${p.seat}:${i}`,
        label,
        { "data-kind": "cellar", "data-seat": p.seat, "data-space": i, "data-count": n, "data-grand": g, "data-reward": tile ? reward.join(" ") : null },
        s("rect", { x, y, width: cw, height: 78, rx: 6, class: tile ? "cellar tile-cellar" : "cellar" }),
        text(x + 6, y + 16, `C${i + 1}`, { "font-weight": "700", class: "small" }),
        text(x + cw - 6, y + 16, `${arch > 0 ? "+" : ""}${arch} / ${bottom} VP`, { "text-anchor": "end", class: "tiny" }),
        figures,
        tile ? text(x + 6, y + 72, reward.length ? `→ ${rewardShort(reward)}` : t("no reward"), { class: "tiny", "font-weight": "600" }) : null,
        n + g === 0 ? text(x + cw / 2, y + 50, t("empty"), { "text-anchor": "middle", class: "tiny muted" }) : null,
      ),
    );
  });
  out.push(
    s(
      "g",
      { "data-kind": "appendix-of", "data-seat": p.seat, "data-count": p.appendix },
      text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 100 : y + 20, tn("Appendix: {n} comet", "Appendix: {n} comets", p.appendix), { class: "small" }),
      text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 118 : y + 40, t("Reputation {reputation} · {yet}", { reputation: p.reputation, yet: p.achievements.length ? `claimed ${p.achievements.join(", ")}` : t("no objective yet") }), { class: "small" }),
      p.moon ? text(W < NARROW || tile ? 8 : 510, W < NARROW || tile ? y + 136 : y + 60, t("Moon observations: {moon}", { moon: p.moon }), { class: "small" }) : null,
    ),
  );
  return [out, 32 + (W < NARROW || tile ? 146 : 86)];
}

function library(board, catalog, p, y0) {
  const out = [text(8, y0 + 22, t("Library and Book tokens"), { class: "heading" })];
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
    const head = hidden ? t("? tier {tier}", { tier: String(id).slice(7) }) : card ? card.major.name : id;
    out.push(
      s(
        "g",
        { "data-kind": "library-card", "data-seat": p.seat, "data-card": id, "data-dark": String(dark) },
        s("title", {}, hidden ? t("A face-down tier {tier} card (only its owner sees its front)", { tier: String(id).slice(7) }) : dark ? t("{name} ({id}), observed: dark side up", { name: card ? card.major.name : id, id }) : t("{name} ({id}), face down: light side up", { name: card ? card.major.name : id, id })),
        s("rect", { x: x + 2, y, width: sw - 4, height: 22, rx: 4, class: dark ? "lib-head dark" : "lib-head light" }),
        text(x + sw / 2, y + 15, head.length > 12 ? `${head.slice(0, 11)}…` : head, { "text-anchor": "middle", class: dark ? "tiny on-dark" : "tiny" }),
      ),
    );
  });
  out.push(text(50 + sw / 2, y + 15, t("start"), { "text-anchor": "middle", class: "tiny muted" }), text(50 + sw * 1.5, y + 15, t("printed"), { "text-anchor": "middle", class: "tiny muted" }));
  const covered = libraryCovers(catalog, p);
  catalog.library_rows.forEach((row, r) => {
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
      if (cover) parts.push(s("g", { "data-kind": "library-cover", "data-seat": p.seat, "data-tile": cover.tile, "data-row": r, "data-column": k }, s("title", {}, t("Library tile {tile} (face {face}) covers this space: {rewardWords}", { tile: cover.tile, face: cover.face, rewardWords: rewardWords(cover.reward) })), text(x + 6, ry + 11, cover.tile, { class: "tiny muted" })));
      if (k >= 1) parts.push(text(x + sw / 2, ry + 25, reward === null ? "?" : rewardShort(reward), { "text-anchor": "middle", class: "tiny", "font-weight": cover ? "700" : null }));
    }
    const pos = p.books[r];
    const bx = 50 + Math.min(pos, spaces - 1) * sw + sw / 2;
    parts.push(
      s(
        "g",
        { "data-kind": "book", "data-seat": p.seat, "data-row": r, "data-position": pos },
        s("title", {}, t("{row} Book token on space {pos}", { row, pos })),
        s("rect", { x: bx - 13, y: ry + 2, width: 26, height: 10, rx: 2, fill: seatColour(p.seat), stroke: "#1d2433" }),
      ),
    );
    const label = t("Library row {row}: Book token on space {pos} of {spaces}; next {row2}", { row, pos, spaces: spaces - 1, row2: pos + 1 < spaces ? (pos + 1 === 1 ? rewardWords(catalog.library_printed[r]) : t("a card's space")) : t("the end of the row") });
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
  const tiles = Object.fromEntries(own.library_tiles.map((tl) => [tl.id, tl]));
  for (const [id, face, column, row] of ability.library) {
    const tile = tiles[id];
    if (!tile) continue;
    tile.faces[face].forEach((reward, k) => out.set(`${row + k}:${column}`, { tile: id, face, reward }));
  }
  return out;
}

// -- the ability side's own components (digest §17) ----------------------------------------------------

const CONDITIONS = {
  "INC:R": t("increase red dice"),
  "INC:Y": t("increase yellow dice"),
  "INC:B": t("increase blue dice"),
  "1D": t("one die +"),
  Q: t("gain a Quadrant"),
  LEC: t("a Lecture"),
  PER: "persuade",
  DIE: t("gain a die"),
  WRITE: "write",
  SPOT: t("spot a comet"),
  UPG: t("upgrade a tile"),
  FW: t("a Farewell"),
  "OBS:constellation": t("observe a constellation"),
  "OBS:major": t("observe a Major Object"),
};
const conditionWords = (code) => CONDITIONS[code] || code;

function box(x, y, width, height, cls, ...children) {
  return [s("rect", { x, y, width, height, rx: 6, class: cls }), ...children];
}

// The personal Book-of-Comets pages (CHAR-3, BOC-5): a comet may go on them instead of a shared page.
function personalPages(board, catalog, p, own, y0) {
  const ability = abilityOf(p);
  const out = [text(8, y0 + 16, t("Personal Book of Comets pages"), { class: "label" })];
  own.pages.forEach((page, i) => {
    const x = 8 + i * 170;
    const covered = ability.pages.includes(page.id);
    out.push(
      target(
        `page:${page.id}`,
        t("{nameOf}'s personal page {id}: {rewardWords}{free}", { nameOf: nameOf(board, p.seat), id: page.id, rewardWords: rewardWords(page.reward), free: covered ? t("; covered by a comet") : t("; free") }),
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
  const label = t("Set aside on Kepler's character board: {id} ({basic}): 1 {rewardWords}, 2 {rewardWords2}. His special tile swaps it with a tile of the sky (option 2), or two tiles of the sky (option 1); the special tile itself is never swapped", { id: tile ? tile.name : id, basic: up ? t("upgraded") : t("basic"), rewardWords: rewardWords(face[0]), rewardWords2: rewardWords(face[1]) });
  return [
    [
      target(
        `aside:${p.seat}`,
        label,
        { "data-kind": "aside", "data-seat": p.seat, "data-tile": id, "data-face": up ? "upgraded" : "basic" },
        ...box(8, y0 + 8, 250, 84, up ? "tile upgraded" : "tile"),
        text(16, y0 + 26, t("Character board: {id} ({id2})", { id: tile ? tile.name : id, id2: id }), { "font-weight": "700", class: "small" }),
        text(16, y0 + 42, t("{side} · set aside", { side: up ? t("★ upgraded") : t("basic side") }), { class: "tiny" }),
        text(16, y0 + 62, `1 ${rewardShort(face[0])}`, { class: "small" }),
        text(16, y0 + 82, `2 ${rewardShort(face[1])}`, { class: "small" }),
      ),
      lines(W < NARROW ? 8 : 276, W < NARROW ? y0 + 112 : y0 + 30, t("Kepler's special tile swaps two tiles of the sky (option 1) or a sky tile with this one (option 2); it is never swapped itself."), W < NARROW ? 70 : 90, 15, { class: "small muted" }),
    ],
    W < NARROW ? 140 : 98,
  ];
}

function copernicusTiles(board, catalog, p, own, y0) {
  const placed = new Map(abilityOf(p).library.map(([id, face, column, row]) => [id, { face, column, row }]));
  const out = [text(8, y0 + 16, t("Library tiles (one per turn, free; covered spaces give the tile's reward)"), { class: "label" })];
  own.library_tiles.forEach((tile, i) => {
    const { x, y } = place(i, 230, 8, y0 + 24, 92);
    const at = placed.get(tile.id);
    const faces = Object.entries(tile.faces).map(([face, rows]) => t("face {face}: {rows}", { face, rows: rows.map((r) => rewardShort(r)).join(" / ") }));
    const where = at ? t("placed face {face} up on column {column}, {row}", { face: at.face, column: at.column, row: catalog.library_rows[at.row] }) : t("not placed yet");
    out.push(
      target(
        `libtile:${p.seat}:${tile.id}`,
        tn("Library tile {id} ({n} row): {faces}; {where}", "Library tile {id} ({n} rows): {faces}; {where}", tile.rows, { id: tile.id, faces: faces.join("; "), where }),
        { "data-kind": "library-tile", "data-seat": p.seat, "data-tile": tile.id, "data-placed": at ? `${at.face}:${at.column}:${at.row}` : "" },
        ...box(x, y, 230, 88, at ? "tile placed" : "tile"),
        text(x + 8, y + 18, tn("{id} · {n} row", "{id} · {n} rows", tile.rows, { id: tile.id }), { "font-weight": "700", class: "small" }),
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
  const tiles = Object.fromEntries(luna.hevelius_tiles.map((tl) => [tl.id, tl]));
  const stars = (ids) => ids.reduce((n, id) => n + (tiles[id] ? tiles[id].stars : 0), 0);
  const open = (ids) => ids.reduce((n, id) => n + (tiles[id] ? tiles[id].connections : 0), 0) - 2 * (ids.length - 1);
  const band = (n) => luna.bands.reduce((best, [least, reward]) => (n >= least ? reward : best), []);
  const tileText = (id) => (tiles[id] ? `${"★".repeat(tiles[id].stars)} ${tiles[id].connections} conn. · ${conditionWords(tiles[id].condition)}` : id);
  const now = h.turn === board.state.turn.number;  // `performed` and `claimed` belong to turn `h.turn`
  const performed = now ? h.performed : [];
  const revealed = h.deck.length && !h.deck.includes("?");  // the deck's order is public once the game has ended
  const out = [
    revealed ? s("g", { "data-kind": "hevelius-deck-order", "data-seat": p.seat }, s("title", {}, t("Her deck from the top (revealed at the end): {h}", { h: h.deck.join(", ") }))) : null,
    text(8, y0 + 16, t("Constellation tiles: deck {n_deck} face down{n_deck2} · discard pile {n_discard} · this turn {yet}{turn}", { n_deck: h.deck.length, n_deck2: revealed ? ` (revealed: ${h.deck.slice(0, 6).join(", ")}${h.deck.length > 6 ? "…" : ""})` : "", n_discard: h.discard.length, yet: performed.length ? performed.map(conditionWords).join(", ") : t("nothing performed yet"), turn: now && h.claimed ? t(" · a tile claimed this turn") : "" }), { class: "label", "data-kind": "hevelius-deck", "data-seat": p.seat, "data-deck": h.deck.length, "data-discard": h.discard.length }),
    text(8, y0 + 38, t("Offer (claim one whose action you performed this turn):"), { class: "small" }),
  ];
  h.offer.forEach((id, i) => {
    const { x, y } = place(i, 220, 8, y0 + 46, 62);
    const tl = tiles[id];
    out.push(
      target(
        `hoffer:${p.seat}:${id}`,
        t("Offer tile {id}: {id2}{turn}", { id, id2: tl ? t("{stars}, {connections}, condition: {condition}", { stars: tn("{n} star", "{n} stars", tl.stars), connections: tn("{n} connection", "{n} connections", tl.connections), condition: conditionWords(tl.condition) }) : id, turn: performed.includes(t && tl.condition) ? t(" (performed this turn)") : "" }),
        { "data-kind": "hevelius-offer", "data-seat": p.seat, "data-tile": id },
        ...box(x, y, 220, 58, "tile"),
        text(x + 8, y + 18, id, { "font-weight": "700", class: "small" }),
        text(x + 8, y + 36, tl ? `${"★".repeat(tl.stars)} · ${tl.connections} connection${tl.connections === 1 ? "" : "s"}` : "", { class: "small" }),
        text(x + 8, y + 52, tl ? `if: ${conditionWords(tl.condition)}` : "", { class: "tiny" }),
      ),
    );
  });
  let y = y0 + 46 + place(0, 220, 8, 0, 62).rows(Math.max(1, h.offer.length)) * 66;
  out.push(text(8, y + 16, t("Constellations in progress (a claimed tile starts a new one or extends one through an open connection):"), { class: "small" }));
  const groups = [...h.constellations.map((ids, k) => ({ ids, k: k + 1 })), { ids: [], k: 0 }];
  groups.forEach(({ ids, k }, i) => {
    const { x, y: gy } = place(i, 236, 8, y + 24, 76);
    const n = stars(ids);
    const label = k === 0 ? t("A new constellation (place a claimed tile here to start one)") : t("Constellation {k}: {ids}; {stars}, {connections}; complete now it would give {rewardWords}", { k, ids: ids.join(", "), stars: tn("{n} star", "{n} stars", n), connections: tn("{n} open connection", "{n} open connections", open(ids)), rewardWords: rewardWords(band(n)) });
    out.push(
      target(
        `hgroup:${p.seat}:${k}`,
        label,
        { "data-kind": "hevelius-constellation", "data-seat": p.seat, "data-index": k, "data-tiles": ids.join(","), "data-stars": n, "data-open": k ? open(ids) : "" },
        ...box(x, gy, 236, 72, k ? "constellation-tiles" : "constellation-tiles new"),
        text(x + 8, gy + 18, k ? `Constellation ${k}: ${ids.join(" + ")}` : t("+ new constellation"), { "font-weight": "700", class: "small" }),
        k ? text(x + 8, gy + 36, t("{n} ★ · {open} open", { n, open: open(ids) }), { class: "small" }) : null,
        k ? text(x + 8, gy + 54, t("complete now: {nothing}", { nothing: band(n).length ? rewardShort(band(n)) : t("nothing") }), { class: "tiny" }) : null,
        k ? text(x + 8, gy + 68, ids.map(tileText).join(" | ").slice(0, 40), { class: "tiny muted" }) : null,
      ),
    );
  });
  y += 24 + place(0, 236, 8, 0, 76).rows(groups.length) * 80;
  out.push(
    s(
      "g",
      { "data-kind": "hevelius-discard", "data-seat": p.seat, "data-count": h.discard.length },
      s("title", {}, t("Discard pile (completed constellations and discarded offers): {empty}", { empty: h.discard.join(", ") || t("empty") })),
      text(8, y + 14, t("Discard pile (completed constellations, discarded offers): {empty} · {hevelius} VP from completed constellations", { empty: h.discard.join(", ") || t("empty"), hevelius: (p.points || {}).hevelius || 0 }), { class: "tiny muted" }),
    ),
  );
  return [out, y - y0 + 22];
}

function cunitzArea(board, catalog, p, y0) {
  const u = p.urania;
  const luna = catalog.luna_characters;
  const notes = Object.fromEntries(luna.notes.map((n) => [n.id, n]));
  const out = [text(8, y0 + 16, t("Urania Propitia: the round token (Focus) and the square token's track (Move)"), { class: "label" })];
  // the round token's spaces: the rotating arrow (start) and the three colours (CHAR-CUN-2)
  ["", "R", "Y", "B"].forEach((colour, i) => {
    const x = 8 + i * 92;
    const on = u.round === colour;
    const name = colour ? COLOUR_NAMES[colour] : t("the rotating arrow (start)");
    const parts = [
      ...box(x, y0 + 24, 86, 40, "round-space"),
      colour ? s("circle", { cx: x + 18, cy: y0 + 44, r: 11, fill: DICE[colour] }) : text(x + 18, y0 + 50, "↻", { "text-anchor": "middle", "font-size": 18 }),
      text(x + 32, y0 + 49, colour ? COLOUR_NAMES[colour] : "arrow", { class: "small" }),
      on ? s("circle", { cx: x + 77, cy: y0 + 44, r: 7, fill: seatColour(p.seat), stroke: "#1d2433", "data-kind": "round-token" }) : null,
    ];
    const attrs = { "data-kind": "round-space", "data-seat": p.seat, "data-colour": colour || "arrow", "data-token": String(on) };
    const label = t("Round token space: {name}{here}", { name, here: on ? t(" (the round token is here)") : "" });
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
        label = t("Track space {i}: a Note space, its Note face down", { i });
        body = [text(x + sw / 2, y + 40, "?", { "text-anchor": "middle", "font-weight": "700", "font-size": 20 }), text(x + 4, y + 64, t("face down"), { class: "tiny muted" })];
      } else {
        label = t("Track space {i}: Note {id} ({n} frame): {rewardWords} if the round token shows {n2}", { i, id: n.id, n: n.frame.map((c) => COLOUR_NAMES[c]).join("/"), rewardWords: rewardWords(n.reward), n2: n.frame.map((c) => COLOUR_NAMES[c]).join(t(" or ")) });
        body = [
          ...n.frame.map((c, k) => s("rect", { x: x + 4 + k * 12, y: y + 20, width: 10, height: 10, fill: DICE[c], stroke: "#1d2433", "stroke-width": 0.5 })),
          text(x + 4, y + 48, rewardShort(n.reward), { class: "tiny", "font-weight": "600" }),
          text(x + 4, y + 64, t("Note {id}", { id: n.id }), { class: "tiny muted" }),
        ];
      }
    } else {
      label = t("Track space {i}: {rewardWords}", { i, rewardWords: i === 0 ? t("the start") : rewardWords(reward) });
      body = [lines(x + 4, y + 36, i === 0 ? t("start") : rewardShort(reward), 10, 12, { class: "tiny" })];
    }
    out.push(
      s(
        "g",
        { "data-kind": "urania-space", "data-seat": p.seat, "data-index": i, "data-note": reward === null ? noteId : "", "data-square": String(here) },
        s("title", {}, here ? t("{label}; the square token is here", { label }) : label),
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
  const out = [text(8, y0 + 16, t("The Sun and Venus (position {position} of {n_venus}; moves on each wrap U → S1): after an Observe she gains every reward Venus does not cover", { position: position + 1, n_venus: luna.venus.length }), { class: "label", "data-kind": "venus", "data-seat": p.seat, "data-position": position })];
  luna.sun.forEach((reward, i) => {
    const x = 8 + i * 120;
    const hidden = covered.has(i);
    out.push(
      s(
        "g",
        { "data-kind": "sun-space", "data-seat": p.seat, "data-index": i, "data-covered": String(hidden) },
        s("title", {}, t("Sun space {i}: {rewardWords}{Observe}", { i: i + 1, rewardWords: rewardWords(reward), Observe: hidden ? t(" (covered by Venus)") : t(" (gained after each Observe)") })),
        ...box(x, y0 + 24, 112, 48, hidden ? "sun covered" : "sun"),
        text(x + 8, y0 + 44, rewardShort(reward), { "font-weight": "700", class: "small" }),
        text(x + 8, y0 + 62, hidden ? t("covered by Venus") : "visible", { class: "tiny" }),
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
  const out = [text(8, y0 + 22, t("{character}: ability side", { character: character ? character.name : p.character }), { class: "heading", "data-kind": "ability-side", "data-seat": p.seat, "data-character": p.character })];
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
  if (p.character === "galileo") add([[lines(8, y + 14, t("Galileo: each Observe may be a Major Object and one constellation, or one to three constellations."), 120, 15, { class: "small muted" })], 24]);
  return [out, y - y0 + 4];
}

// The solo Tycho Brahe's board (SOLO-21..24): his line of solo Action tiles (rows top to bottom, the
// partial ones in parentheses), his marker, and his Movement tiles (revealed ones; the stack's order is hidden).
const TYCHO_CONDITIONS = {
  unpersuaded2: t("if 2+ unpersuaded Inquisitors"),
  persuaded3: t("if 3+ fully persuaded Inquisitors"),
  pay2: t("pay 2 dice"),
  pay3: t("pay 3 dice"),
  "pay2-constellations": t("pay 2 dice, 2+ observable constellations"),
  comet: t("if a comet is on his board"),
  "pay2-moon": t("pay 2 dice, an observable Moon tile"),
};
const TYCHO_EFFECTS = {
  comet: () => t("place a comet"),
  "comet-down": () => t("move a comet down"),
  die: () => t("gain a die"),
  book: (n) => t("Book marker +{n}", { n }),
  lecture: () => t("Lecture"),
  persuade: () => t("persuade"),
  remove: () => t("remove a persuaded Inquisitor"),
  vp: (n) => t("{n} VP", { n }),
  constellation: () => t("observe a constellation"),
  major: () => t("take a Major Object"),
  card: () => t("take the deck's top card"),
  moon: () => t("observe the Moon"),
  inquisitor: () => t("gain an Inquisitor"),
};
// One of Tycho's rows in the page's language (SOLO-40..50); the view's English text for what it lacks.
function tychoRowText(row) {
  const effects = (row.effects || []).map((e) => {
    const [name, n] = String(e).split(":");
    return TYCHO_EFFECTS[name] ? TYCHO_EFFECTS[name](n) : e;
  });
  if (row.condition && !TYCHO_CONDITIONS[row.condition]) return row.text;
  const words = (row.condition ? `${TYCHO_CONDITIONS[row.condition]}: ` : "") + effects.join(", ");
  return row.partial ? `(${words})` : words;
}

// A player board's heading: one whole message per case (ability side, the viewer's own board).
function summaryWords(board, p, me) {
  const params = { nameOf: nameOf(board, p.seat), character: characterName(p.character), score: p.score };
  if (abilityOf(p)) return p.seat === me ? t("{nameOf} ({character}, ability side) — you: {score} VP", params) : t("{nameOf} ({character}, ability side): {score} VP", params);
  return p.seat === me ? t("{nameOf} ({character}) — you: {score} VP", params) : t("{nameOf} ({character}): {score} VP", params);
}

function tychoLine(board, catalog, p, y0) {
  const tl = board.tycho;
  const n = tl.line.length;
  const cw = Math.floor((W - 16) / Math.min(n, W < NARROW ? 3 : 6)) - 4;
  const rowH = 13;
  const chars = Math.max(16, Math.floor((cw - 20) / 5.6));  // "tiny" text: about 5.6 units a character
  const wrapped = tl.line.map((tile) => tile.rows.map((row, r) => wrap(`${r + 1}. ${tychoRowText(row)}`, chars)));
  const tallest = Math.max(...wrapped.map((rows) => rows.reduce((k, ls) => k + ls.length, 0) + rows.length));
  const h = 48 + tallest * rowH + 4;
  const level = tl.difficulty ? ` · ${t("difficulty {level}", { level: tl.difficulty })}` : "";
  const out = [
    text(8, y0 + 22, t("Tycho's solo Action tiles · Movement tile: {yet} · {stack_size} left in the stack{level}", { yet: tl.last || t("none yet"), stack_size: tl.stack_size, level }), { class: "heading" }),
  ];
  const soloName = (tile) => ((catalog.names || {}).solo_tile || {})[tile.id] || tile.name;  // the page's language
  tl.line.forEach((tile, i) => {
    const { x, y } = place(i, cw, 4, y0 + 32, h);
    const here = i === tl.marker;
    const parts = [
      s("rect", { x, y, width: cw, height: h, rx: 8, class: `tile${tile.upgraded ? " upgraded" : ""}${here ? " here" : ""}` }),
      text(x + 8, y + 18, here ? t("{name} ◆ marker", { name: soloName(tile) }) : soloName(tile), { "font-weight": "700" }),
      text(x + 8, y + 34, tile.upgraded ? t("★ upgraded side") : t("basic side"), { class: "tiny" }),
    ];
    let ry = y + 52;
    wrapped[i].forEach((rowLines) => {
      rowLines.forEach((line, k) => parts.push(text(x + (k ? 18 : 8), ry + k * rowH, line, { class: "tiny" })));
      ry += (rowLines.length + 1) * rowH;
    });
    const label = t("Tycho's tile {name} ({basic}){marker}: {tile}", { name: soloName(tile), basic: tile.upgraded ? t("upgraded") : t("basic"), marker: here ? t(", under his marker") : "", tile: tile.rows.map((r) => tychoRowText(r)).join("; ") });
    out.push(target(`tycho:${i}`, label, { "data-kind": "tycho-tile", "data-tile": tile.id }, parts));
  });
  const rows = place(0, cw, 4, 0, h).rows(n);
  return [out, 36 + rows * (h + 4) + 6];
}

// What Tycho has gathered (SOLO-43, SOLO-47..50): his cards (face down to the person: their tiers only),
// his Book marker, his points by source and the Movement tiles revealed so far.
function tychoHoldings(board, catalog, p, y0) {
  const tl = board.tycho;
  const tiers = {};
  for (const [id] of p.library) {
    const tier = String(id).startsWith("hidden:") ? String(id).slice(7) : String((cardOf(catalog, id) || { tier: "?" }).tier);
    tiers[tier] = (tiers[tier] || 0) + 1;
  }
  const cards = Object.keys(tiers).sort().map((k) => t("tier {k} × {k2}", { k: ROMAN[k] || k, k2: tiers[k] })).join(", ");
  const points = Object.entries(p.points || {}).map(([k, v]) => `${k.replace(/^tycho-/, "")} ${v}`).join(", ");
  const marker = Math.max(...p.books);
  const shown = tl.shown.slice(-8);
  const width = Math.min(W - 16, 980);
  const chars = Math.floor((width - 16) / 6.6);
  const rowsOf = [
    [`${t("Cards: {count}", { count: p.library.length })}${cards ? ` (${cards})` : ""} · ${t("Book marker: {marker}", { marker })} · ${p.score} VP${points ? ` (${points})` : ""}`, "small"],
    [`${t("Movement tiles revealed: {count}", { count: tl.shown.length })}${shown.length ? ` (${t("latest: {tiles}", { tiles: shown.slice().reverse().join(", ") })})` : ""} · ${t("{stack_size} left, order hidden", { stack_size: tl.stack_size })}`, "small"],
    [t("His marker is under tile {i} of {n}; each turn he reveals a Movement tile, moves, then takes the first row whose condition holds.", { i: tl.marker + 1, n: tl.line.length }), "tiny muted"],
  ].flatMap(([words, cls]) => wrap(words, cls === "small" ? chars : Math.floor(chars * 1.1)).map((line) => [line, cls]));
  const height = 12 + rowsOf.length * 18;
  const out = [
    text(8, y0 + 22, t("Tycho's cards, Book marker and points"), { class: "heading" }),
    s(
      "g",
      { "data-kind": "tycho-summary", "data-seat": p.seat, "data-cards": p.library.length, "data-score": p.score, "data-book": marker, "data-stack": tl.stack_size },
      s("title", {}, t("Tycho: {n_library} cards, Book marker on {marker}, {score} VP; {stack_size} Movement tiles left", { n_library: p.library.length, marker, score: p.score, stack_size: tl.stack_size })),
      ...box(8, y0 + 30, width, height, "tycho-summary"),
      rowsOf.map(([line, cls], k) => text(16, y0 + 48 + k * 18, line, { class: cls })),
    ),
  ];
  return [out, 38 + height];
}

export function playerBoard(board, catalog, p) {
  const acting = board.to_act === p.seat;
  const parts = [
    s("rect", { x: 0, y: 0, width: W, height: 40, fill: seatColour(p.seat) }),
    text(12, 27, `${nameOf(board, p.seat)} · ${characterName(p.character)}`, { fill: "white", "font-weight": "700", "font-size": 18 }),
    text(W - 12, 27, t("{score} VP · {quadrants} Q{reputation}{act}", { score: p.score, quadrants: p.quadrants, reputation: W < NARROW ? "" : t(" · reputation {reputation}", { reputation: p.reputation }), act: acting ? t(" · to act") : "" }), { fill: "white", "text-anchor": "end", "font-weight": "600" }),
  ];
  let y = 44;
  const opponent = board.tycho && board.tycho.seat === p.seat;
  for (const part of opponent ? [tychoLine, tychoHoldings, resources, cellar] : [sky, resources, cellar, library, characterArea]) {
    const [items, height] = part(board, catalog, p, y);
    parts.push(s("g", {}, items));
    y += height;
  }
  return svgRoot(y + 4, t("{nameOf}'s player board", { nameOf: nameOf(board, p.seat) }), parts);
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
      el("summary", {}, summaryWords(board, p, me)),
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
