import { baselineOf, changesSince, type Entries, weigh } from "./session-evidence";

const jar = (pairs: Record<string, string>): Entries =>
  new Map(Object.entries(pairs).map(([name, value]) => [`cookie 127.0.0.1|/|${name}`, value]));

describe("session evidence", () => {
  // A load balancer's and a CSRF cookie, re-issued on every response, beside the site's own session cookie.
  const loaded = jar({ AWSALB: "a1", csrftoken: "c1", sid: "anon" });

  it("takes an entry whose value changed before the submit, or a cookie two responses set, for one that rotates", () => {
    const atSubmit = jar({ AWSALB: "a2", csrftoken: "c1", sid: "anon" });
    const baseline = baselineOf(atSubmit, loaded, new Set(["csrftoken"]));
    expect([...baseline.rotating].sort()).toEqual(["cookie 127.0.0.1|/|AWSALB", "cookie 127.0.0.1|/|csrftoken"]);
  });

  it("is none when nothing changed, and removed entries count for nothing", () => {
    const baseline = baselineOf(loaded, loaded, new Set());
    expect(weigh(changesSince(baseline, jar({ AWSALB: "a1" })), { account: true, movedAway: true })).toBe("none");
  });

  it("is weak, never strong, when only rotating entries changed, whatever the page shows", () => {
    const baseline = baselineOf(loaded, null, new Set(["AWSALB", "csrftoken"]));
    const changes = changesSince(baseline, jar({ AWSALB: "a9", csrftoken: "c9", sid: "anon" }));
    expect(changes).toEqual({
      gained: [],
      changed: [],
      rotated: ["cookie 127.0.0.1|/|AWSALB", "cookie 127.0.0.1|/|csrftoken"],
    });
    expect(weigh(changes, { account: true, movedAway: true })).toBe("weak");
  });

  it("is strong for a change beyond what rotates on a page that shows the account", () => {
    const baseline = baselineOf(loaded, null, new Set(["AWSALB"]));
    expect(
      weigh(changesSince(baseline, jar({ AWSALB: "a9", csrftoken: "c1", sid: "user-7" })), {
        account: true,
        movedAway: false,
      }),
    ).toBe("strong");
  });

  it("is strong on another page only with an entry the browser did not hold at all", () => {
    const baseline = baselineOf(loaded, null, new Set());
    const changedOnly = changesSince(baseline, jar({ AWSALB: "a9", csrftoken: "c9", sid: "anon" }));
    expect(weigh(changedOnly, { account: false, movedAway: true })).toBe("weak");
    const gained = changesSince(baseline, jar({ AWSALB: "a1", csrftoken: "c1", sid: "anon", remember_token: "r" }));
    expect(gained.gained).toEqual(["cookie 127.0.0.1|/|remember_token"]);
    expect(weigh(gained, { account: false, movedAway: true })).toBe("strong");
  });

  it("is weak for new state on the login page's own address with no account shown", () => {
    const baseline = baselineOf(new Map([["storage http://127.0.0.1|theme", "dark"]]), null, new Set());
    const now: Entries = new Map([
      ["storage http://127.0.0.1|theme", "dark"],
      ["storage http://127.0.0.1|token", "t"],
    ]);
    expect(weigh(changesSince(baseline, now), { account: false, movedAway: false })).toBe("weak");
  });
});
