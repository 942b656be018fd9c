// The pages' words (docs/i18n.md). The server sets <html lang> to the negotiated language and puts that
// language's catalog into the page as JSON (the same as GET /i18n/{lang}.json), made from the same gettext
// catalogs as the server's own words: message ids are the English texts, `{name}` placeholders are
// filled in here. Plurals follow the language's CLDR rules through Intl.PluralRules; numbers through
// Intl.NumberFormat.

const LANG_KEY = "galileo:lang";
const COOKIE = "galileo_lang";

export const lang = document.documentElement.lang || "en";

// The server puts the catalog of the page's language into the page (a JSON data block, never run), so
// the words are there before any page code runs; a client may also read GET /i18n/{lang}.json.
function embedded() {
  const block = document.getElementById("i18n-catalog");
  try {
    return block ? JSON.parse(block.textContent) : null;
  } catch {
    return null;
  }
}

const data = embedded() || { locale: "en", intl: "en", messages: {}, languages: [] };
const messages = data.messages || {};
export const intl = data.intl || "en";
// A character's printed name in the page's language (the catalog's names, domain/catalog/names):
// characterName("galileo") is "ガリレオ・ガリレイ" on a Japanese page; an id it does not know as it is.
export const characterName = (id) => ((data.names || {}).character || {})[id] || id;
const plurals = new Intl.PluralRules(intl);
const numbers = new Intl.NumberFormat(intl);

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? (typeof params[name] === "number" ? numbers.format(params[name]) : String(params[name])) : whole);
}

// A message in the page's language: t("Take back {words}?", { words }).
export function t(msgid, params = {}) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

// A counted message: tn("{n} move", "{n} moves", n) picks the CLDR plural form of n.
export function tn(one, many, n, params = {}) {
  const forms = messages[one];
  let template = n === 1 ? one : many;
  if (forms && typeof forms === "object") template = forms[plurals.select(n)] || forms.other || template;
  return fill(template, { n, ...params });
}

export function number(n) {
  return numbers.format(n);
}

// Choosing a language: remembered by this browser (cookie, read by the server, and localStorage), and
// by the account when one is signed in (the server keeps it and sets the cookie at sign-in).
export async function choose(locale) {
  localStorage.setItem(LANG_KEY, locale);
  document.cookie = `${COOKIE}=${encodeURIComponent(locale)}; path=/; max-age=${400 * 24 * 3600}; samesite=lax`;
  try {
    const me = await fetch("/session", { headers: { Accept: "application/json" } });
    const account = me.ok ? (await me.json()).account : null;
    if (account) {
      await fetch("/me/language", {
        method: "PUT",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": account.csrf_token },
        body: JSON.stringify({ locale }),
      });
    }
  } catch {
    // not signed in, or offline: this browser remembers it
  }
  location.reload();
}

// The selector every page shows in its header (a page served without its catalog, such as a rules page
// rendered by rulebook/, asks the server for the list of languages).
async function selector() {
  const header = document.querySelector("header");
  if (!header || header.querySelector("#lang")) return;
  if (!(data.languages || []).length) {
    try {
      const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`, { headers: { Accept: "application/json" } });
      if (response.ok) Object.assign(data, { languages: (await response.json()).languages, locale: lang });
    } catch {
      return;
    }
  }
  const label = document.createElement("label");
  label.className = "lang";
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", t("Language"));
  for (const { locale, name } of data.languages || []) {
    const option = document.createElement("option");
    option.value = locale;
    option.textContent = name;
    option.lang = locale;
    if (locale === data.locale) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => choose(select.value));
  label.append(select);
  header.append(label);
}

// A browser that chose a language before its cookie was lost (or on a page served before the choice).
const remembered = localStorage.getItem(LANG_KEY);
if (remembered && remembered !== data.locale && !document.cookie.includes(`${COOKIE}=`)) {
  document.cookie = `${COOKIE}=${encodeURIComponent(remembered)}; path=/; max-age=${400 * 24 * 3600}; samesite=lax`;
  location.reload();
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", selector);
else selector();
