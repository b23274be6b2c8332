"""Log in with authsvc, hand the session to a browser, and look at the signed-in page.

What an agent (browser-use, Playwright) does with the answer, shown with the standard library only: the
session is written as Playwright's storage_state file, then loaded into Debian's Chromium over the
DevTools protocol (cookies with Network.setCookies, then localStorage per origin), which opens the page.

With browser-use or Playwright for Python, the browser part is two lines instead:

    # browser-use
    browser_session = BrowserSession(storage_state="storage_state.json")
    agent = Agent(task="...", llm=llm, browser_session=browser_session)

    # Playwright for Python
    context = browser.new_context(storage_state="storage_state.json")
    page = context.new_page(); page.goto(SIGNED_IN_URL)

Configuration (environment): AUTHSVC_BASE_URL, AUTHSVC_API_KEY; AUTHSVC_LOGIN_URL (default: the demo
site's {AUTHSVC_SITES_URL}/classic/login), AUTHSVC_SIGNED_IN_URL (default: .../classic/account),
AUTHSVC_USERNAME / AUTHSVC_PASSWORD (default: the demo user), AUTHSVC_STORAGE_STATE (default:
./storage_state.json), CHROMIUM_PATH (default: /usr/bin/chromium).
"""

from __future__ import annotations

import json
import os
import sys

try:
    import authsvc
except ImportError:  # running from the repository without `pip install clients/python`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python", "src"))
    import authsvc

from chromium_pipe import Chromium, Tab


def env(name: str, default: str = "") -> str:
    value = os.environ.get(name, default)
    if not value:
        sys.exit(f"set {name}")
    return value


def main() -> int:
    sites = os.environ.get("AUTHSVC_SITES_URL", "http://127.0.0.1:4000").rstrip("/")
    login_url = env("AUTHSVC_LOGIN_URL", f"{sites}/classic/login")
    signed_in_url = env("AUTHSVC_SIGNED_IN_URL", f"{sites}/classic/account")
    state_path = env("AUTHSVC_STORAGE_STATE", "storage_state.json")

    client = authsvc.Client(env("AUTHSVC_BASE_URL"), env("AUTHSVC_API_KEY"))
    try:
        session = client.login(
            domain=login_url,
            login_method="password",
            cred={"username": env("AUTHSVC_USERNAME", "demo"), "password": env("AUTHSVC_PASSWORD", "demo-password")},
            on_progress=lambda event: print(f"  job {event['type']}"),
        )
    except authsvc.AuthsvcError as err:
        print(f"login failed: {err.code}: {err.message}", file=sys.stderr)
        return 1
    authsvc.write_storage_state(session, state_path)
    print(f"logged in ({'cached session' if session.cache == 'hit' else 'browser login'}); storage_state written to {state_path}")

    with open(state_path, encoding="utf-8") as f:
        state = json.load(f)
    browser = Chromium(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
    try:
        tab = Tab(browser)
        tab.send("Network.setCookies", authsvc.cdp_set_cookies_params(state))
        for origin in state.get("origins", []):
            if origin.get("localStorage"):
                # localStorage belongs to a document of its origin: open one, then write the items.
                tab.goto(origin["origin"] + "/")
                tab.evaluate(f"for (const i of {json.dumps(origin['localStorage'])}) localStorage.setItem(i.name, i.value)")
        tab.goto(signed_in_url)
        heading = tab.evaluate("(document.querySelector('h1') || document.body).innerText")
        print(f"the signed-in page shows: {heading}")
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
