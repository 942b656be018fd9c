// The account page's Profile panel (docs/ratings.md): make your profile public or private
// (PUT /me/profile) and open it (/players/{name}: ratings, games by mode, characters, recent games).
import { api, clear, el, showProblem } from "/static/common.js";
import { currentAccount } from "/static/account.js";

const section = document.getElementById("profile-section");
const target = document.getElementById("profile-choice");

async function render(account) {
  const profile = await api("/me/profile");
  const box = el("input", { type: "checkbox", id: "profile-public", checked: profile.public });
  box.addEventListener("change", async () => {
    try {
      await api("/me/profile", { method: "PUT", csrf: account.csrf_token, body: { public: box.checked } });
      await render(account);
    } catch (error) {
      showProblem(target, error);
    }
  });
  clear(target, el("label", {}, box, " Show my profile and ratings to everyone"),
    profile.link ? el("p", {}, el("a", { href: profile.link, id: "profile-link" }, "My public profile")) : el("p", { class: "muted" }, "Your profile is private."));
}

const account = await currentAccount().catch(() => null);
if (account && section) {
  section.hidden = false;
  await render(account).catch((error) => showProblem(target, error));
}
