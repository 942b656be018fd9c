// The account page (/account): sign in or create an account with a passkey, sign out, add a passkey, and
// My games (GET /me/games) with links that open each seat on this device (ACCT-2).
import { Problem, clear, el, shortId, showProblem, when } from "/static/common.js";
import { currentAccount, myGames, registerPasskey, sessionNow, signIn, signOut } from "/static/account.js";
import { pushOn, renderNotifications, saveEmail } from "/static/notifications.js";

const problem = document.getElementById("account-problem");

// Back to the page that sent here (a path of this site only), after signing in.
function next() {
  const target = new URLSearchParams(location.search).get("next");
  return target && target.startsWith("/") && !target.startsWith("//") ? target : null;
}

function duration(seconds) {
  const s = Math.round(seconds);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}

function gameRow(game) {
  const turn = game.status !== "active" ? "—" : game.your_turn ? el("span", { class: "badge turn" }, "yours") : game.to_act_name;
  const time = !game.clock ? "no clock" : game.clock.paused ? `${duration(game.clock.seconds_left)} (paused)` : game.clock.deadline ? `${duration(game.clock.seconds_left)}, until ${when(game.clock.deadline)}` : duration(game.clock.seconds_left);
  const open = game.status === "active" ? el("a", { href: game.link, class: "open-seat" }, "Open") : el("a", { href: game.replay_link }, "Replay");
  return el("tr", { class: game.your_turn ? "to-act" : null, "data-game": game.game_id },
    el("td", {}, el("code", {}, shortId(game.game_id))),
    el("td", {}, `${game.seat} (${game.seat_name})`),
    el("td", {}, game.status),
    el("td", {}, turn),
    el("td", {}, time),
    el("td", {}, open));
}

// Why an OpenID Connect sign-in came back without a session (/session/oidc/callback).
const SIGN_IN_ERRORS = {
  "consent-refused": "the provider did not sign you in (consent refused)",
  "bad-state": "this sign-in was not begun in this browser, or it expired: try again",
  "token-rejected": "the provider's answer was not accepted",
  "provider-error": "the provider reported an error",
};

function signInError() {
  const code = new URLSearchParams(location.search).get("signin_error");
  if (!code) return;
  history.replaceState(null, "", location.pathname);
  showProblem(problem, new Problem(401, { title: "Not signed in", detail: SIGN_IN_ERRORS[code] || code, code }));
}

async function render() {
  let account;
  try {
    const now = await sessionNow();
    account = now.account;
    const provider = document.getElementById("oidc-sign-in");
    provider.hidden = !now.oidc;
    if (now.oidc) {
      provider.textContent = `Sign in with ${now.oidc}`;
      provider.href = "/session/oidc/login";  // only when a provider is configured (else it answers 404)
    }
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  document.getElementById("signed-out").hidden = Boolean(account);
  document.getElementById("signed-in").hidden = !account;
  document.getElementById("my-games-section").hidden = !account;
  document.getElementById("notifications-section").hidden = !account;
  if (!account) return;
  await renderNotifications(account);
  document.getElementById("account-name").textContent = account.name;
  document.getElementById("account-passkeys").textContent = `${account.passkeys} passkey${account.passkeys === 1 ? "" : "s"} sign this account in.`;
  const games = await myGames();
  const body = document.getElementById("my-games");
  clear(body, games.length ? games.map(gameRow) : el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No claimed seats yet.")));
  body.dataset.ready = "true";  // listed (tests wait on it)
}

async function signedIn(action) {
  try {
    await action();
    showProblem(problem, null);
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  const target = next();
  if (target) location.assign(target);
  else signInError();
await render();
}

document.getElementById("sign-in").addEventListener("click", () => signedIn(signIn));
document.getElementById("register").addEventListener("submit", (event) => {
  event.preventDefault();
  signedIn(() => registerPasskey(document.getElementById("name").value));
});
document.getElementById("add-passkey").addEventListener("click", async () => {
  const account = await currentAccount();
  if (account) await signedIn(() => registerPasskey(null, account.csrf_token));
});
document.getElementById("sign-out").addEventListener("click", async () => {
  const account = await currentAccount();
  if (account) await signOut(account);
  signInError();
await render();
});

document.getElementById("email-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const account = await currentAccount();
  if (account) await signedIn(() => saveEmail(account));
});
document.getElementById("push-on").addEventListener("click", async () => {
  const account = await currentAccount();
  if (account) await signedIn(() => pushOn(account));
});

signInError();
await render();
