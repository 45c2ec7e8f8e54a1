import { api, onSubmit } from "./api.js";
import { errorText } from "./i18n.js";

const form = document.getElementById("join-form");
const invite = form.dataset.invite;
const code = form.dataset.code; // the join screen of a room code (/code/{code}) joins by the code
const nameInput = document.getElementById("name");
const errorBox = document.getElementById("join-error");
// a name typed before this script ran is kept
nameInput.value ||= localStorage.getItem("gn-name") || "";

async function join(name) {
  const path = code ? `/api/codes/${encodeURIComponent(code)}/join` : `/api/join/${encodeURIComponent(invite)}`;
  const res = await api("POST", path, { name });
  // the join lands on the room's own page, now as a member
  location.href = `/r/${res.room_id}`;
}

onSubmit(form, async () => {
  errorBox.textContent = "";
  try {
    localStorage.setItem("gn-name", nameInput.value.trim());
    await join(nameInput.value);
  } catch (err) {
    errorBox.textContent = errorText(err);
  }
});
