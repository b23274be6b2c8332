import { cookieHeaderFor as serviceCookieHeaderFor, type Cookie } from "@authsvc/contracts";
import { cookieHeaderFor } from "./cookie-header";

// The SDK is published without workspace packages, so it keeps its own copy of what the service's session
// check sends (@authsvc/contracts): every cookie of this grid, to every URL, must get the same header from both.
const DOMAINS = [".example.com", "example.com", "app.example.com", ".APP.example.com", "localhost", "::1", "127.0.0.1"];
const PATHS = ["/", "/admin", "/admin/", ""];
const EXPIRIES = [-1, 0, 1_000_000_000, 1_900_000_000];
const URLS = [
  "https://app.example.com/admin/users",
  "http://app.example.com/administrator",
  "https://example.com/",
  "https://evil-example.com/",
  "https://sub.app.example.com/admin",
  "http://localhost:3000/admin",
  "http://[::1]:8080/",
  "http://127.0.0.1/admin/",
];

describe("the SDK's cookieHeaderFor and the service's", () => {
  it("send the same cookies to every URL", () => {
    const now = 1_800_000_000_000;
    const grid: Cookie[] = [];
    for (const domain of DOMAINS)
      for (const path of PATHS)
        for (const expires of EXPIRIES)
          for (const secure of [false, true])
            grid.push({
              name: `c${grid.length}`,
              value: "v",
              domain,
              path,
              expires,
              secure,
              httpOnly: false,
              sameSite: "Lax",
            });
    for (const url of URLS) {
      expect([url, serviceCookieHeaderFor({ cookies: grid }, url, now)]).toEqual([
        url,
        cookieHeaderFor({ cookies: grid }, url, now),
      ]);
      for (const c of grid)
        expect([url, c, serviceCookieHeaderFor({ cookies: [c] }, url, now)]).toEqual([
          url,
          c,
          cookieHeaderFor({ cookies: [c] }, url, now),
        ]);
    }
  });
});
