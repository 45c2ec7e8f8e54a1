// The few browser globals the page modules read when they are imported (static/js/i18n.js
// reads its catalog from the page, static/js/socket.js opens a WebSocket), so that their pure
// parts run under `node --test` with no DOM library. Import this module first.
import { readFileSync } from "node:fs";

const locales = new URL("../../src/geniusnight/locales/", import.meta.url);

// the catalog the page would carry, in the language the test asks for (LANG below)
export const LANG = process.env.GENIUSNIGHT_TEST_LANG || "de";
export const catalog = JSON.parse(readFileSync(new URL(`${LANG}.json`, locales), "utf8"));

globalThis.document = {
  documentElement: { lang: LANG },
  getElementById: (id) => (id === "i18n-catalog" ? { textContent: JSON.stringify(catalog) } : null),
  querySelectorAll: () => [],
};
globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };

// A WebSocket that records what the page sends; tests play the server by calling receive().
export class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  static last = null;

  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = FakeWebSocket.CONNECTING;
    FakeWebSocket.last = this;
  }

  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.();
  }

  receive(frame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.readyState = FakeWebSocket.CLOSED;
  }
}
globalThis.WebSocket = FakeWebSocket;
