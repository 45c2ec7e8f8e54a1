import { api, el } from "./api.js";
import { errorText, t, tOr } from "./i18n.js";
import { optionsForm } from "./options.js";

const form = document.getElementById("create-form");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("create-error");
const nameInput = document.getElementById("name");
nameInput.value = localStorage.getItem("gn-name") || "";

// The submit handler is bound before the game list arrives: a click in that moment must wait
// for the options form, not fall through to the browser's own submit, which reloads the page
// and loses what was typed.
const ready = api("GET", "/api/games").then((games) => {
  let current = null;
  function showOptions() {
    const id = form.querySelector("input[name=game]:checked").value;
    const info = games.find((g) => g.id === id);
    current = optionsForm(info);
    optionsBox.replaceChildren(el("h2", {}, t("home.options", { game: tOr(`game.${info.id}.title`, info.title) })), current.node);
  }
  form.addEventListener("change", (e) => { if (e.target.name === "game") showOptions(); });
  showOptions();
  return () => current;
});

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.textContent = "";
  const game = form.querySelector("input[name=game]:checked").value;
  try {
    const current = (await ready)();
    const { options, time_limits } = current.read();
    localStorage.setItem("gn-name", nameInput.value.trim());
    const res = await api("POST", "/api/rooms", { game, options, time_limits, name: nameInput.value });
    location.href = `/r/${res.room_id}`;
  } catch (err) {
    errorBox.textContent = errorText(err);
  }
});
