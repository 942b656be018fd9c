// The play page's "Mail me my turns" panel (docs/notifications.md): with this browser's seat token, no
// account needed, an address for this seat only. It gets a confirmation mail first, and nothing else until
// its link is opened (ACCT-5); every mail has a link to stop them.
import { t } from "./i18n.js";
import { api, clear, gameIdFromPath, showProblem, takeToken } from "/static/common.js";
import { STATES } from "/static/notifications.js";

const gameId = gameIdFromPath();
const panel = document.getElementById("seat-mail");
const status = document.getElementById("seat-mail-status");
const problem = document.getElementById("seat-mail-problem");

async function render() {
  const token = takeToken(gameId);
  panel.hidden = !token;
  if (!token) return;
  try {
    const reach = await api(`/games/${encodeURIComponent(gameId)}/reach`, { token });
    if (reach.email) document.getElementById("seat-mail-address").value = reach.email.address;
    clear(status, reach.email ? `${reach.email.address}: ${STATES[reach.email.status] || reach.email.status}.` : t("No address."));
    showProblem(problem, null);
  } catch (error) {
    if (error.status === 401) {
      // A wrong or re-issued seat link: the page says so and shows the game as a spectator's (play.js);
      // a spectator has no seat to give an address for.
      panel.hidden = true;
      return;
    }
    showProblem(problem, error);
  }
}

document.getElementById("seat-mail-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const address = document.getElementById("seat-mail-address").value.trim();
  try {
    await api(`/games/${encodeURIComponent(gameId)}/email`, { token: takeToken(gameId), method: "PUT", body: { address } });
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  await render();
});

await render();
