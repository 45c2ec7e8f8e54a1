// The page's language: t(key, params) looks a key up in the catalog the server put in the
// page (src/geniusnight/locales/<lang>.json), and the EN | DE switch in the header.
// Only the site's own wording is translated; what players type is shown as they typed it.

const node = document.getElementById("i18n-catalog");
const catalog = node ? JSON.parse(node.textContent) : {};

export const lang = document.documentElement.lang || "en";

// t("room.seats", {n: 2, max: 4}) -> "2/4 seats"; a key missing from the catalog shows itself
export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// the text for a key if the catalog has one, else the fallback (e.g. a game's own English label)
export function tOr(key, fallback, params = {}) {
  return key in catalog ? t(key, params) : fallback;
}

// A server error ({code, message}) in the page's language: by its stable code when the
// catalog knows it, else the server's own (English) message.
export function errorText(err) {
  return err && err.code && `error.${err.code}` in catalog ? t(`error.${err.code}`) : (err && err.message) || "";
}

// the switch: remember the choice for a year and draw the page again in that language
for (const button of document.querySelectorAll("[data-lang]")) {
  button.addEventListener("click", () => {
    document.cookie = `lang=${button.dataset.lang}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  });
}
