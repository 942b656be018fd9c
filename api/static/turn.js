// Whose turn: a banner, the tab's title and favicon, and (opt-in) a sound and a browser notification
// when it becomes the viewer's turn. The opt-ins are kept in localStorage.
import { clear, el } from "/static/common.js";
import { seatColour } from "/static/svg.js";
import { PHASES } from "/static/words.js";
import { intl, t } from "./i18n.js";

const BOT_NAMES = { greedy: t("greedy"), random: t("random") };

const SOUND_KEY = "galileo:sound";
const NOTIFY_KEY = "galileo:notify";

function favicon(colour, mark) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="${colour}"/>${mark ? '<circle cx="16" cy="16" r="6" fill="white"/>' : ""}</svg>`;
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function beep() {
  try {
    const context = new AudioContext();
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.5);
    tone.connect(gain).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.5);
  } catch {
    // no audio in this browser: the banner and title still say it
  }
}

export class TurnBanner {
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.wasMine = null;
    const sound = el("input", { type: "checkbox", id: "opt-sound", checked: localStorage.getItem(SOUND_KEY) === "1" });
    sound.addEventListener("change", () => localStorage.setItem(SOUND_KEY, sound.checked ? "1" : "0"));
    const notify = el("input", { type: "checkbox", id: "opt-notify", checked: localStorage.getItem(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted" });
    notify.addEventListener("change", async () => {
      if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
        const answer = await Notification.requestPermission();
        if (answer !== "granted") notify.checked = false;
      }
      localStorage.setItem(NOTIFY_KEY, notify.checked ? "1" : "0");
    });
    this.message = el("span", { class: "banner-text", role: "status", "aria-live": "polite" });
    this.jump = el("a", { href: "#moves-section", class: "jump", hidden: true }, t("Your moves ↓"));
    clear(
      options,
      el("label", {}, sound, t(" sound on my turn")),
      " ",
      "Notification" in window ? el("label", {}, notify, t(" notify me")) : null,
    );
    clear(root, this.message, " ", this.jump);
  }

  show(board) {
    const me = board.viewer ? board.viewer.seat : null;
    const seats = board.seats || [];
    const name = (seat) => (seats[seat] ? seats[seat].name : t("seat {seat}", { seat }));
    let text;
    let cls;
    if (board.status === "finished") {
      const winners = new Intl.ListFormat(intl, { type: "conjunction" }).format((board.winners || []).map(name));
      text = board.winners.length > 1 ? t("The game has ended: {winners} share the victory.", { winners }) : t("The game has ended: {winners} wins.", { winners });
      cls = "finished";
    } else if (board.your_turn) {
      text = t("Your turn, {name}: round {round}, {phase} phase.", { name: name(me), round: board.round, phase: PHASES[board.phase] || board.phase });
      cls = "mine";
    } else {
      const bot = seats[board.to_act] && seats[board.to_act].bot;
      const params = { name: name(board.to_act), bot: BOT_NAMES[bot] || bot, round: board.round, phase: PHASES[board.phase] || board.phase };
      const waiting = me !== null && me !== undefined;
      // Whole sentences, one per case (a language orders "bot", "waiting" its own way).
      if (bot) text = waiting ? t("{name} ({bot} bot) to play: round {round}, {phase} phase. Waiting…", params) : t("{name} ({bot} bot) to play: round {round}, {phase} phase.", params);
      else text = waiting ? t("{name} to play: round {round}, {phase} phase. Waiting…", params) : t("{name} to play: round {round}, {phase} phase.", params);
      cls = "theirs";
    }
    this.root.className = `banner ${cls}`;
    this.root.style.setProperty("--seat", board.to_act === null ? "#555" : seatColour(board.to_act));
    this.message.textContent = text;
    this.jump.hidden = cls !== "mine";
    const title = board.status === "finished" ? t("Finished") : board.your_turn ? t("● Your turn") : t("{name} to play", { name: name(board.to_act) });
    document.title = t("{title} · Galileo Galilei", { title });
    favicon(board.to_act === null ? "#555" : seatColour(board.to_act), board.your_turn);
    const mine = Boolean(board.your_turn);
    if (mine && this.wasMine === false) this.alert(board);
    this.wasMine = mine;
  }

  alert(board) {
    if (localStorage.getItem(SOUND_KEY) === "1") beep();
    if (localStorage.getItem(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification(t("Galileo Galilei: your turn"), { body: t("Round {round}, {phase} phase", { round: board.round, phase: PHASES[board.phase] || board.phase }), tag: `galileo-${board.version}` });
    }
  }
}
