from __future__ import annotations

import http.cookiejar
import json
import os
import stat
import tempfile
import unittest
import urllib.request
from typing import Any, Dict

from authsvc import cdp_set_cookies_params, cookie_header, storage_state, to_cdp_cookies, to_cookiejar, to_netscape_cookies, to_puppeteer_cookies, write_netscape_cookies, write_storage_state

# Host-only session cookie on loopback, a persistent domain cookie (Secure, SameSite=None) and a path cookie.
HOST_ONLY = {"name": "sid", "value": "s3cr3t", "domain": "127.0.0.1", "path": "/", "expires": -1, "httpOnly": True, "secure": False, "sameSite": "Lax"}
DOMAIN = {"name": "pref", "value": "dark", "domain": ".example.com", "path": "/", "expires": 4102444800, "httpOnly": False, "secure": True, "sameSite": "None"}
SCOPED = {"name": "admin", "value": "a1", "domain": "app.example.com", "path": "/admin", "expires": 4102444800, "httpOnly": False, "secure": True, "sameSite": "Strict"}
LOCAL_STORAGE = [{"origin": "http://127.0.0.1:4000", "localStorage": [{"name": "token", "value": "t0k"}]}]
SESSION: Dict[str, Any] = {
    "cookies": [HOST_ONLY, DOMAIN, SCOPED],
    "origins": ["http://127.0.0.1:4000"],
    "storageState": {"cookies": [HOST_ONLY, DOMAIN, SCOPED], "origins": LOCAL_STORAGE},
}


class StorageStateTest(unittest.TestCase):
    def test_is_playwrights_shape_with_local_storage_and_a_copy(self) -> None:
        state = storage_state(SESSION)
        self.assertEqual(state, SESSION["storageState"])
        state["cookies"].clear()
        self.assertEqual(len(SESSION["storageState"]["cookies"]), 3)

    def test_is_built_from_the_cookies_when_the_answer_has_none(self) -> None:
        self.assertEqual(storage_state({"cookies": [HOST_ONLY], "origins": []}), {"cookies": [HOST_ONLY], "origins": []})

    def test_is_written_to_a_file_only_its_owner_reads(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = write_storage_state(SESSION, os.path.join(tmp, "state.json"))
            with open(path) as f:
                self.assertEqual(json.load(f), SESSION["storageState"])
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)


class CdpCookiesTest(unittest.TestCase):
    def test_host_only_cookies_go_by_url_domain_cookies_by_domain_session_cookies_without_expires(self) -> None:
        host_only, domain, scoped = to_cdp_cookies(SESSION)
        self.assertEqual(host_only, {"name": "sid", "value": "s3cr3t", "path": "/", "url": "http://127.0.0.1/", "secure": False, "httpOnly": True, "sameSite": "Lax"})
        self.assertEqual(domain, {"name": "pref", "value": "dark", "path": "/", "domain": ".example.com", "secure": True, "httpOnly": False, "sameSite": "None", "expires": 4102444800.0})
        self.assertEqual(scoped["url"], "https://app.example.com/admin")
        self.assertNotIn("domain", scoped)
        self.assertEqual(cdp_set_cookies_params(SESSION), {"cookies": [host_only, domain, scoped]})
        self.assertEqual(to_puppeteer_cookies(SESSION), [host_only, domain, scoped])


class NetscapeTest(unittest.TestCase):
    def test_writes_curls_format_with_httponly_marks_subdomain_flags_and_0_for_session_cookies(self) -> None:
        lines = to_netscape_cookies(SESSION).splitlines()
        self.assertEqual(lines[0], "# Netscape HTTP Cookie File")
        self.assertIn("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\ts3cr3t", lines)
        self.assertIn(".example.com\tTRUE\t/\tTRUE\t4102444800\tpref\tdark", lines)
        self.assertIn("app.example.com\tFALSE\t/admin\tTRUE\t4102444800\tadmin\ta1", lines)

    def test_mozilla_cookie_jar_reads_the_file_back(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = write_netscape_cookies(SESSION, os.path.join(tmp, "cookies.txt"))
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
            jar = http.cookiejar.MozillaCookieJar(path)
            jar.load(ignore_discard=True)
            # Python's reader skips #HttpOnly_ lines as comments; curl reads them.
            self.assertEqual(sorted(c.name for c in jar), ["admin", "pref"])


class CookieJarTest(unittest.TestCase):
    def header_for(self, url: str) -> str:
        request = urllib.request.Request(url)
        to_cookiejar(SESSION).add_cookie_header(request)
        return request.get_header("Cookie") or ""

    def test_sends_each_cookie_where_a_browser_would(self) -> None:
        self.assertEqual(self.header_for("http://127.0.0.1:4000/classic/account"), "sid=s3cr3t")
        self.assertEqual(self.header_for("https://shop.example.com/"), "pref=dark")
        self.assertEqual(self.header_for("https://app.example.com/admin/users"), "admin=a1; pref=dark")
        self.assertEqual(self.header_for("http://app.example.com/admin"), "")  # secure cookies need https
        self.assertEqual(self.header_for("https://sub.app.example.com/admin"), "pref=dark")  # admin is host-only

    def test_keeps_session_cookies_and_http_only(self) -> None:
        sid = next(c for c in to_cookiejar(SESSION) if c.name == "sid")
        self.assertTrue(sid.discard)
        self.assertIsNone(sid.expires)
        self.assertTrue(sid.has_nonstandard_attr("HttpOnly"))
        self.assertFalse(sid.domain_specified)


class CookieHeaderTest(unittest.TestCase):
    def test_matches_domain_path_secure_and_expiry(self) -> None:
        self.assertEqual(cookie_header(SESSION, "http://127.0.0.1:4000/x"), "sid=s3cr3t")
        self.assertEqual(cookie_header(SESSION, "https://app.example.com/admin/x"), "admin=a1; pref=dark")
        self.assertEqual(cookie_header(SESSION, "https://app.example.com/administrator"), "pref=dark")
        self.assertEqual(cookie_header(SESSION, "https://example.com/"), "pref=dark")
        self.assertEqual(cookie_header(SESSION, "https://notexample.com/"), "")
        self.assertEqual(cookie_header(SESSION, "https://example.com/", now=4102444801), "")


if __name__ == "__main__":
    unittest.main()
