import { api, el, onSubmit, toast } from "./api.js";
import { errorText, lang, t, tOr } from "./i18n.js";
import "./code.js"; // the "Join with code" box
import { optionsForm } from "./options.js";

// "My rooms": the rooms this browser holds a seat in, whose turn it is, and a way out of each
async function showMyRooms() {
  let rooms = [];
  try { rooms = (await api("GET", "/api/my-rooms")).rooms; } catch { return; }
  const items = rooms.map((r) => {
    const status = r.your_turn ? t("home.your_turn") : r.turn.length ? t(r.turn.length > 1 ? "home.turn_of_many" : "home.turn_of", { names: r.turn.join(", ") }) : tOr(`room.status.${r.status}`, r.status);
    const leave = el("button", { type: "button", class: "link-button", "data-testid": `my-room-leave-${r.room_id}`,
      onclick: async () => {
        if (!confirm(t(r.host ? "room.leave_confirm_host" : "room.leave_confirm"))) return;
        try { await api("POST", `/api/rooms/${encodeURIComponent(r.room_id)}/leave`); } catch (err) { toast(errorText(err), "bad"); }
        showMyRooms();
      } }, t("home.leave"));
    return el("li", { class: r.your_turn ? "my-room your-turn" : "my-room", "data-testid": `my-room-${r.room_id}` },
      el("a", { href: `/r/${encodeURIComponent(r.room_id)}`, class: "my-room-open", "data-testid": `my-room-open-${r.room_id}` },
        el("span", { class: "game-title" }, tOr(`game.${r.game}.title`, r.title)),
        el("span", { class: "my-room-status" }, status),
        el("span", { class: "game-meta" }, r.players.join(", "))),
      leave);
  });
  document.getElementById("my-rooms-list").replaceChildren(...items);
  document.getElementById("my-rooms").hidden = !items.length;
}
showMyRooms();

const form = document.getElementById("create-form");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("create-error");
const nameInput = document.getElementById("name");
// a name typed before this script ran is kept
nameInput.value ||= localStorage.getItem("gn-name") || "";

// The submit handler is bound before the game list arrives: a click in that moment waits for
// the options form.
const ready = api("GET", "/api/games").then((games) => {
  let current = null;
  function showOptions() {
    const id = form.querySelector("input[name=game]:checked").value;
    const info = games.find((g) => g.id === id);
    // the cards start in the host's page language where the game has it
    current = optionsForm(info, {}, undefined, { language: lang });
    optionsBox.replaceChildren(el("h2", {}, t("home.options", { game: tOr(`game.${info.id}.title`, info.title) })), current.node);
  }
  form.addEventListener("change", (e) => { if (e.target.name === "game") showOptions(); });
  showOptions();
  return () => current;
});

onSubmit(form, async () => {
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
