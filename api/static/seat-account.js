// The play page's Account panel: signed in, attach the seat whose link this browser holds to the account
// (ACCT-1), so that it is listed under My games and opens on any device (ACCT-2). Signed out, a link to
// the account page, which comes back here after signing in.
import { clear, el, gameIdFromPath, showProblem, takeToken } from "/static/common.js";
import { claimSeat, currentAccount, myGames } from "/static/account.js";
import { t } from "./i18n.js";

const gameId = gameIdFromPath();
const target = document.getElementById("account-seat");
const problem = document.getElementById("account-problem");

async function render() {
  let account;
  try {
    account = await currentAccount();
  } catch (error) {
    showProblem(problem, error);
    clear(target);
    return;
  }
  if (!account) {
    const next = encodeURIComponent(location.pathname);
    clear(target, t("Not signed in. "), el("a", { href: `/account?next=${next}` }, t("Sign in or create an account")),
      t(" to keep this seat in your account and open it on any device."));
    return;
  }
  const mine = (await myGames().catch(() => [])).filter((g) => g.game_id === gameId).map((g) => g.seat);
  const button = el("button", { type: "button", id: "claim-seat" }, t("Attach this seat to my account"));
  button.addEventListener("click", () => claim(account));
  clear(target,
    el("div", {}, t("Signed in as "), el("strong", {}, account.name), "."),
    mine.length ? el("div", { id: "claimed-note" }, t("Seat {mine} of this game is in your account (My games).", { mine: mine.join(", ") })) : null,
    el("div", { class: "row" }, button));
}

async function claim(account) {
  const token = takeToken(gameId);
  if (!token) {
    showProblem(problem, new Error(t("this browser holds no seat token for this game: open the seat's link first")));
    return;
  }
  try {
    await claimSeat(account, gameId, token);
    showProblem(problem, null);
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  await render();
}

await render();
