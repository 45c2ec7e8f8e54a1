// "Join with code" (templates/_code_form.html, on the home page and on a room's address for
// someone not in it): the code is checked here, so a typo is told at once, then the join screen.
import { api, onSubmit } from "./api.js";
import { errorText } from "./i18n.js";

const codeForm = document.getElementById("code-form");
const codeInput = document.getElementById("code-input");
const codeError = document.getElementById("code-error");
onSubmit(codeForm, async () => {
  codeError.textContent = "";
  const code = codeInput.value.replace(/[\s-]/g, "").toUpperCase();
  try {
    await api("GET", `/api/codes/${encodeURIComponent(code)}`);
    location.href = `/code/${encodeURIComponent(code)}`;
  } catch (err) {
    codeError.textContent = errorText(err);
  }
});
