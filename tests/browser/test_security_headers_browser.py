"""The content security policy (docs/deploy.md, "Abuse limits") in a real browser: the pages
work under it and break none of its rules, and another origin's page cannot frame them."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator

from playwright.async_api import Browser, Page, expect

from support import ServerProcess

# every violation the page sees, kept where the test can read it
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


async def violations(page: Page) -> list[str]:
    found: list[str] = await page.evaluate("window.__violations")
    return found


async def test_the_pages_work_under_the_policy_and_break_none_of_its_rules(
    server: ServerProcess, browser: Browser
) -> None:
    context = await browser.new_context()
    await context.add_init_script(WATCH_VIOLATIONS)
    page = await context.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))

    await page.goto(server.base + "/")
    await page.get_by_test_id("game-ingenious").check(force=True)
    await page.get_by_test_id("host-name").fill("Ada")
    await page.get_by_test_id("create-room").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    assert await violations(page) == []
    for path in ("/rules/ingenious", "/admin"):
        await page.goto(server.base + path)
        await page.wait_for_load_state("networkidle")
        assert await violations(page) == [], path
    assert not [line for line in console if "Content Security Policy" in line]
    await context.close()


@contextlib.contextmanager
def page_elsewhere(html: str) -> Iterator[str]:
    """A page of another origin (another port of the same host) serving ``html``: its URL."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


async def test_another_origins_page_cannot_frame_ours(server: ServerProcess, browser: Browser) -> None:
    """A page on another port of the same host frames the admin console (its login form):
    the browser shows an error page in the frame instead, and no form of ours."""
    page = await browser.new_page()
    with page_elsewhere(f'<iframe id="f" src="{server.base}/admin"></iframe>') as evil:
        await page.goto(evil)
        child = next(f for f in page.frames if f.parent_frame is not None)
        for _ in range(100):  # until the frame has been answered, either way
            if child.url.startswith(("chrome-error://", server.base)):
                break
            await page.wait_for_timeout(100)
        await page.wait_for_timeout(300)
    assert child.url.startswith("chrome-error://"), child.url
    assert await page.frame_locator("#f").locator("form, input").count() == 0
    await page.close()
