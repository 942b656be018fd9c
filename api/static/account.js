// Optional accounts (docs/accounts.md), shared by the account page and the play page: who is signed in,
// passkey ceremonies (WebAuthn, discoverable credentials), claiming a seat (ACCT-1) and opening a claimed
// seat on this device (ACCT-2). The session is an HttpOnly cookie no script reads; every write it
// authenticates sends the session's CSRF token (from GET /me) as X-CSRF-Token (ACCT-3).
import { Problem, api, newCommandId, saveToken } from "/static/common.js";
import { t } from "./i18n.js";

// {account, oidc}: the signed-in account ({account_id, name, csrf_token, ...}) or null, and the name of
// the OpenID Connect provider one may sign in with (or null).
export async function sessionNow() {
  try {
    return await api("/session");
  } catch (error) {
    if (error instanceof Problem && error.status === 401) return { account: null, oidc: null };  // a stale cookie, now cleared
    throw error;
  }
}

export async function currentAccount() {
  return (await sessionNow()).account;
}

function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
}

function unsupported() {
  return new Problem(0, {
    title: t("Passkeys unavailable"),
    detail: "this browser cannot use passkeys here (it needs a secure page: https, or http://localhost)",
    code: "passkeys-unsupported",
  });
}

// Register a passkey: a new account named `name`, or (signed in, `csrf` given) another passkey of it.
export async function registerPasskey(name, csrf = null) {
  if (!passkeysSupported()) throw unsupported();
  const begun = await api("/passkeys/register/options", { method: "POST", body: name ? { name } : {}, csrf });
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(begun.public_key);
  const credential = await navigator.credentials.create({ publicKey });
  return api("/passkeys/register", {
    method: "POST", body: { ceremony: begun.ceremony, credential: credential.toJSON() }, csrf,
  });
}

// Sign in with a passkey this browser (or a phone nearby) holds: no name asked.
export async function signIn() {
  if (!passkeysSupported()) throw unsupported();
  const begun = await api("/session/options", { method: "POST", body: {} });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(begun.public_key);
  const credential = await navigator.credentials.get({ publicKey });
  return api("/session", { method: "POST", body: { ceremony: begun.ceremony, credential: credential.toJSON() } });
}

export async function signOut(account) {
  await api("/session", { method: "DELETE", csrf: account.csrf_token });
}

export async function myGames() {
  return (await api("/me/games")).games;
}

export async function claimSeat(account, gameId, token) {
  return api(`/games/${encodeURIComponent(gameId)}/claim`, {
    method: "POST", token, csrf: account.csrf_token, body: { command_id: newCommandId() },
  });
}

// `#seat=N` in the address (the links of My games): when this browser holds no working token for the
// game, a signed-in account the seat is attached to gets a new one for this device (ACCT-2). Returns the
// token to use (the one held, the new one, or null) and a problem to show, if any.
export async function recoverIfAsked(gameId, token) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const seat = fragment.get("seat");
  if (seat === null) return { token, problem: null };
  history.replaceState(null, "", location.pathname + location.search);
  const path = `/games/${encodeURIComponent(gameId)}`;
  if (token) {
    try {
      const moves = await api(`${path}/moves`, { token });
      if (String(moves.seat) === seat) return { token, problem: null };
    } catch (error) {
      if (!(error instanceof Problem && error.status === 401)) return { token, problem: error };
    }
  }
  try {
    const account = await currentAccount();
    if (!account) {
      return { token, problem: new Problem(401, { title: t("Not signed in"), detail: t("sign in (Account) to open your seat on this device"), code: "sign-in-required" }) };
    }
    const recovered = await api(`${path}/seats/${encodeURIComponent(seat)}/recover`, { method: "POST", csrf: account.csrf_token });
    saveToken(gameId, recovered.token);
    return { token: recovered.token, problem: null };
  } catch (error) {
    return { token, problem: error };
  }
}
