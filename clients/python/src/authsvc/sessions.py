"""Handing a session to the agent's browser or HTTP client.

The service reports cookies as Playwright and Puppeteer do: `domain` without a leading dot is a host-only
cookie, with one a domain cookie (sent to subdomains too); `expires` is Unix seconds, -1 for a session
cookie. Each helper keeps those meanings in the target's own terms.

Every output holds live session secrets: files are written readable by their owner only.
"""

from __future__ import annotations

import copy
import http.cookiejar
import json
import os
import time
import urllib.parse
from typing import Any, Dict, List, Mapping, Optional

Cookie = Dict[str, Any]


def cookies_of(session: Mapping[str, Any]) -> List[Cookie]:
    """The cookies of a session answer (or of a storageState dict)."""
    cookies = session.get("cookies")
    if cookies is None and isinstance(session.get("storageState"), Mapping):
        cookies = session["storageState"].get("cookies")
    return [dict(c) for c in (cookies or [])]


def is_host_only(cookie: Mapping[str, Any]) -> bool:
    return not str(cookie.get("domain", "")).startswith(".")


def is_session_cookie(cookie: Mapping[str, Any]) -> bool:
    expires = cookie.get("expires")
    return expires is None or float(expires) < 0


def storage_state(session: Mapping[str, Any]) -> Dict[str, Any]:
    """Playwright's storage state: what `browser.new_context(storage_state=...)` (Playwright Python) and
    browser-use's `BrowserSession(storage_state=...)` load. localStorage and IndexedDB ride along."""
    state = session.get("storageState")
    if isinstance(state, Mapping):
        return copy.deepcopy(dict(state))
    return {"cookies": cookies_of(session), "origins": []}


def write_storage_state(session: Mapping[str, Any], path: str) -> str:
    """Writes the storage state as JSON to `path` (owner-only) and returns the path."""
    write_private(path, json.dumps(storage_state(session), indent=2))
    return path


def to_cdp_cookies(session: Mapping[str, Any]) -> List[Cookie]:
    """`Network.setCookies` cookie params. A host-only cookie is given by `url` (CDP turns a `domain` into
    a domain cookie); a session cookie has no `expires`."""
    out: List[Cookie] = []
    for c in cookies_of(session):
        param: Cookie = {"name": c["name"], "value": c["value"], "path": c.get("path") or "/"}
        domain = str(c.get("domain", ""))
        if is_host_only(c):
            scheme = "https" if c.get("secure") else "http"
            param["url"] = f"{scheme}://{domain}{param['path']}"
        else:
            param["domain"] = domain
        param["secure"] = bool(c.get("secure"))
        param["httpOnly"] = bool(c.get("httpOnly"))
        if c.get("sameSite") in ("Strict", "Lax", "None"):
            param["sameSite"] = c["sameSite"]
        if not is_session_cookie(c):
            param["expires"] = float(c["expires"])
        out.append(param)
    return out


def cdp_set_cookies_params(session: Mapping[str, Any]) -> Dict[str, Any]:
    """The params of the CDP command `Network.setCookies`."""
    return {"cookies": to_cdp_cookies(session)}


def to_puppeteer_cookies(session: Mapping[str, Any]) -> List[Cookie]:
    """Arguments for Puppeteer's `page.setCookie(...cookies)` and pyppeteer's `page.setCookie(*cookies)`:
    their cookie params are CDP's, host-only cookies by `url`, session cookies without `expires`."""
    return to_cdp_cookies(session)


def to_netscape_cookies(session: Mapping[str, Any]) -> str:
    """A Netscape cookie file, as curl (`-b file`), wget and `http.cookiejar.MozillaCookieJar` read it."""
    lines = ["# Netscape HTTP Cookie File", "# Written by the authsvc client: live session cookies, keep private.", ""]
    for c in cookies_of(session):
        domain = str(c.get("domain", ""))
        # curl's mark for an HttpOnly cookie; other readers take it as a comment line and skip the cookie.
        prefix = "#HttpOnly_" if c.get("httpOnly") else ""
        expires = 0 if is_session_cookie(c) else int(float(c["expires"]))
        fields = [
            prefix + domain,
            "FALSE" if is_host_only(c) else "TRUE",
            c.get("path") or "/",
            "TRUE" if c.get("secure") else "FALSE",
            str(expires),
            c["name"],
            c["value"],
        ]
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def write_netscape_cookies(session: Mapping[str, Any], path: str) -> str:
    write_private(path, to_netscape_cookies(session))
    return path


def to_cookiejar(session: Mapping[str, Any]) -> http.cookiejar.CookieJar:
    """A CookieJar for urllib (`HTTPCookieProcessor(jar)`), `requests` (`cookies=jar`,
    `session.cookies.update(jar)`) and `httpx` (`cookies=jar`)."""
    # Python's default policy sends a host-only cookie to subdomains too; browsers do not.
    policy = http.cookiejar.DefaultCookiePolicy(strict_ns_domain=http.cookiejar.DefaultCookiePolicy.DomainStrictNonDomain)
    jar = http.cookiejar.CookieJar(policy)
    for c in cookies_of(session):
        domain = str(c.get("domain", ""))
        domain_cookie = not is_host_only(c)
        rest: Dict[str, str] = {}
        if c.get("httpOnly"):
            rest["HttpOnly"] = ""
        if c.get("sameSite"):
            rest["SameSite"] = str(c["sameSite"])
        jar.set_cookie(
            http.cookiejar.Cookie(
                version=0,
                name=c["name"],
                value=c["value"],
                port=None,
                port_specified=False,
                domain=domain,
                domain_specified=domain_cookie,
                domain_initial_dot=domain_cookie,
                path=c.get("path") or "/",
                path_specified=True,
                secure=bool(c.get("secure")),
                expires=None if is_session_cookie(c) else int(float(c["expires"])),
                discard=is_session_cookie(c),
                comment=None,
                comment_url=None,
                rest=rest,
            )
        )
    return jar


def cookie_header(session: Mapping[str, Any], url: str, now: Optional[float] = None) -> str:
    """The `Cookie` header a browser would send to `url` (RFC 6265 domain, path, secure and expiry rules)."""
    parts = urllib.parse.urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path or "/"
    current = time.time() if now is None else now
    chosen = []
    for c in cookies_of(session):
        if not domain_matches(host, c) or not path_matches(path, c.get("path") or "/"):
            continue
        if c.get("secure") and parts.scheme != "https":
            continue
        if not is_session_cookie(c) and float(c["expires"]) <= current:
            continue
        chosen.append(c)
    # Longer paths first, as browsers order them.
    chosen.sort(key=lambda c: -len(c.get("path") or "/"))
    return "; ".join(f"{c['name']}={c['value']}" for c in chosen)


def domain_matches(host: str, cookie: Mapping[str, Any]) -> bool:
    domain = str(cookie.get("domain", "")).lower()
    if is_host_only(cookie):
        return host == domain
    bare = domain.lstrip(".")
    return host == bare or host.endswith("." + bare)


def path_matches(request_path: str, cookie_path: str) -> bool:
    if request_path == cookie_path:
        return True
    if not request_path.startswith(cookie_path):
        return False
    return cookie_path.endswith("/") or request_path[len(cookie_path)] == "/"


def write_private(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
