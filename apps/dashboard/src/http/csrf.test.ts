import { sameOrigin, tokensMatch } from "./csrf";

const own = "http://127.0.0.1:8083";

describe("sameOrigin", () => {
  it("takes our own origin and refuses any other, or a cross-site fetch", () => {
    expect(sameOrigin({ origin: own, "sec-fetch-site": "same-origin" }, own, false)).toBe(true);
    expect(sameOrigin({ origin: "http://127.0.0.1:4000", "sec-fetch-site": "same-site" }, own, false)).toBe(false);
    expect(sameOrigin({ origin: "null" }, own, false)).toBe(false);
    expect(sameOrigin({ "sec-fetch-site": "cross-site" }, own, false)).toBe(false);
  });

  it("lets a request without Origin through to the token check, unless the path needs an Origin", () => {
    expect(sameOrigin({}, own, false)).toBe(true);
    expect(sameOrigin({}, own, true)).toBe(false);
  });
});

describe("tokensMatch", () => {
  it("needs the exact token", () => {
    expect(tokensMatch("abc", "abc")).toBe(true);
    expect(tokensMatch("abd", "abc")).toBe(false);
    expect(tokensMatch("ab", "abc")).toBe(false);
    expect(tokensMatch(undefined, "abc")).toBe(false);
    expect(tokensMatch(["abc"], "abc")).toBe(false);
    expect(tokensMatch("", undefined)).toBe(false);
  });
});
