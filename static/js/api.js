// Small helpers shared by every page: JSON requests, toasts, safe DOM building.

// JSON.parse that keeps integers beyond 2**53 exact, as BigInt (an engine's 64-bit PRNG state):
// a plain parse would round them, and what the page shows would not be the state.
export function parseExact(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value) && context?.source
      ? BigInt(context.source) : value);
}

// JSON.stringify for values from parseExact: a BigInt is written as the number it is.
export function stringifyExact(value, indent) {
  return JSON.stringify(value, (_key, v) =>
    typeof v === "bigint" ? (JSON.rawJSON ? JSON.rawJSON(v.toString()) : v.toString()) : v, indent);
}

export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try { data = parseExact(await res.text()); } catch { /* empty body */ }
  if (!res.ok) {
    const message = (data && (data.message || (data.detail && JSON.stringify(data.detail)))) || res.statusText;
    const err = new Error(message);
    err.code = data && data.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

// The pages draw a form's submit button disabled until its script handles the submit: a tap
// before that would be the browser's own submit, which reloads the page and loses what was typed.
export function onSubmit(form, handler) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    handler(e);
  });
  for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = false;
}

export function toast(message, kind = "") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const div = document.createElement("div");
  div.className = `toast ${kind}`;
  div.textContent = message;
  box.append(div);
  setTimeout(() => div.remove(), 4000);
}

// el("button", {class: "x", onclick: f}, "text", child) -- text always as text, never HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
