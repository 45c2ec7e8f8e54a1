// static/js/i18n.js with the German catalog the page would carry (docs/i18n.md).
import { catalog } from "./dom.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { errorText, lang, t, tOr } from "../../static/js/i18n.js";

test("the page's language is the document's", () => {
  assert.equal(lang, "de");
});

test("t looks a key up in the catalog and fills its {placeholders}", () => {
  assert.match(catalog["room.seats"], /\{n\}.*\{max\}/);
  const text = t("room.seats", { n: 2, max: 4 });
  assert.equal(text, catalog["room.seats"].replace("{n}", "2").replace("{max}", "4"));
  assert.doesNotMatch(text, /[{}]/);
});

test("a placeholder with no value stays as written, and extra values are ignored", () => {
  assert.equal(t("room.seats", { n: 2, other: 1 }), catalog["room.seats"].replace("{n}", "2"));
});

test("a key missing from the catalog shows itself", () => {
  assert.equal(t("no.such.key"), "no.such.key");
});

test("tOr gives the catalog's text when it has the key, else the fallback", () => {
  assert.equal(tOr("room.seats", "fallback", { n: 1, max: 2 }), t("room.seats", { n: 1, max: 2 }));
  assert.equal(tOr("option.ingenious.no_such", "Board size"), "Board size");
});

test("a server error is shown by its stable code when the catalog knows it", () => {
  assert.equal(errorText({ code: "not_your_turn", message: "Not your turn." }), catalog["error.not_your_turn"]);
});

test("an error with a code the catalog does not know shows the server's message", () => {
  assert.equal("error.zz_not_a_code" in catalog, false);
  assert.equal(errorText({ code: "zz_not_a_code", message: "Something the server said." }), "Something the server said.");
  assert.equal(errorText({ message: "No code." }), "No code.");
  assert.equal(errorText(null), "");
});
