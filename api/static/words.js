// The play page's words, in one place (a translation replaces this module). Texts about the game itself
// (what a move is and does) come from the server: projections/describe.py.
import { t, tn } from "./i18n.js";

// The board areas a highlighted element can be in (moves.js, "Highlighted on the board: ...").
export const AREAS = {
  sky: t("your starry sky"),
  mo: t("the Discovery cards"),
  c: t("the Discovery cards"),
  supply: t("the dice supply"),
  die: t("your dice"),
  scale: t("the University"),
  cellar: t("your cellar"),
  row: t("your library"),
  page: t("the Book of Comets"),
  quadrants: t("your Quadrants (free actions)"),
  moon: t("the Moon"),
  bonus: t("the Bonus board"),
  aside: t("your character board"),
  libtile: t("your library tiles"),
  hoffer: t("your Constellation tile offer"),
  hgroup: t("your constellations"),
  round: t("your Urania Propitia board"),
};

export const TEXT = {
  choicesLabel: t("The moves of the chosen element"),
  confirmLabel: t("Confirm the move"),
  confirmSetting: t("Confirm each move"),
  filter: t("Filter moves"),
  filterLabel: t("Filter the legal moves"),
  allMoves: t("All legal moves"),
  highlighted: t("Highlighted on the board: "),
  selected: t("Selected"),
  moveCount: (n) => tn("{n} move", "{n} moves", n),
  confirm: t("Confirm"),
  cancel: t("Cancel"),
  warning: t("Wasted: "),
  thenRevealed: (what) => t("Then {what}.", { what }),
  undoable: t("You can take this back until something hidden is revealed or another player acts."),
  finalReveals: t("This cannot be taken back: it reveals something hidden."),
  finalEndsTurn: t("This ends your turn: it cannot be taken back."),
  final: t("This cannot be taken back."),
  linkInvalid: t("This link is no longer valid (the seat was given a new link, or the link is wrong): you are watching as a spectator. Ask the table's host for a new link."),
  finalScores: t("Final scores: points by source"),
  player: t("Player"),
  total: t("Total"),
  winnerMark: t("★ wins"),
  source: (key) => key.replace(/[-_]/g, " "),
  yourMove: t("Choose a highlighted element of the board or a move in this bar."),
  yourMoveQuick: t("Choose a highlighted element of the board: it acts at once (you can take it back)."),
  notYourTurn: t("Not your turn: the board updates as the others play."),
  spectator: t("Spectators have no moves."),
  ended: t("The game has ended."),
  takeBack: t("Take back"),
  undoStep: t("Undo"),
  lastStep: t("your last step"),
  restartTurn: t("Restart my turn"),
  wholeTurn: t("every step of your turn"),
  askTakeBack: t("Ask the others"),
  takeBackAsk: (words) => t("Take back {words}?", { words }),
};

// The phases of a turn, as the board view names them (docs/state.md: "movement" | "actions" | ...).
export const PHASES = { movement: t("movement"), actions: t("actions"), cleanup: t("cleanup"), scoring: t("scoring"), over: t("over") };
