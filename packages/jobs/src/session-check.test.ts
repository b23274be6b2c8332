import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Cookie } from "@authsvc/contracts";
import { TargetGuard } from "@authsvc/egress";
import { startTestSites, type TestSites } from "@authsvc/test-sites";
import { checkSession } from "./session-check";

let sites: TestSites;
let down: Server;
let downUrl: string;
let shop: Server;
let shopUrl: string;
// The shop's live sessions: sign-out lives in a script-drawn menu, so no page's HTML shows a sign-out control.
// A session the shop ended is answered with a page of its own (200, no form), as many sites do.
const shopSessions = new Set(["s-live"]);
const endedSessions = new Set(["s-ended"]);
const guard = new TargetGuard(["loopback"]);
const TIMEOUT_MS = 10_000;

beforeAll(async () => {
  sites = await startTestSites();
  // A site having a bad moment: every page answers 503.
  down = createServer((_req, res) =>
    res.writeHead(503, { "content-type": "text/html" }).end("<h1>Service unavailable</h1>"),
  );
  await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
  downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
  shop = createServer((req, res) => {
    const sid = /sid=([^;]+)/.exec(req.headers.cookie ?? "")?.[1] ?? "";
    const signedIn = shopSessions.has(sid);
    if (req.url === "/profile" && endedSessions.has(sid)) {
      return res
        .writeHead(200, { "content-type": "text/html" })
        .end('<h1>Your session has expired</h1><p><a href="/login">Sign in again</a></p>');
    }
    const form =
      '<form method="post" action="/login"><input name="email"><input name="password" type="password"><button>Sign in</button></form>';
    if (req.url === "/orders") {
      // Signed out, the orders page answers 200 with the login form in its place (no redirect).
      return res
        .writeHead(200, { "content-type": "text/html" })
        .end(signedIn ? "<h1>Your orders</h1><p>No orders yet.</p>" : `<h1>Sign in to see your orders</h1>${form}`);
    }
    if (req.url === "/profile") {
      if (!signedIn) return res.writeHead(302, { location: "/login?next=%2Fprofile" }).end();
      return res
        .writeHead(200, { "content-type": "text/html" })
        .end("<h1>Your profile</h1><p>Email: ada@shop.test</p>");
    }
    if (req.url === "/account") {
      if (!signedIn) return res.writeHead(302, { location: "/login?next=%2Faccount" }).end();
      return res
        .writeHead(200, { "content-type": "text/html" })
        .end('<h1>Hello</h1><div id="menu"></div><script>menu.innerHTML = "<a href=/logout>Sign out</a>"</script>');
    }
    res.writeHead(200, { "content-type": "text/html" }).end(form);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sites.close();
  await new Promise((resolve) => down.close(resolve));
  await new Promise((resolve) => shop.close(resolve));
});

/** Signs in on the classic form as a browser would (its POST, the session cookie it sets): the cookies a login captured. */
async function classicSession(username: string): Promise<Cookie[]> {
  sites.accounts.addUser(username, "pw-1");
  const res = await fetch(`${sites.url}/classic/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password: "pw-1" }),
  });
  expect(res.status).toBe(302);
  return res.headers.getSetCookie().map((line) => {
    const [pair] = line.split(";");
    const [name, value] = pair!.split("=");
    return {
      name: name!,
      value: value!,
      domain: "127.0.0.1",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Lax" as const,
    };
  });
}

const endSessions = (username: string) =>
  fetch(`${sites.url}/__fixture/expire-sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username }),
  });

describe("checkSession", () => {
  it("finds a session alive on the page it signed in on, and dead once the site signed it out everywhere", async () => {
    const cookies = await classicSession("check-ada");
    const target = {
      session: { cookies },
      signedInPage: `${sites.url}/classic/account`,
      loginPage: `${sites.url}/classic/login`,
    };
    expect(await checkSession(guard, target, TIMEOUT_MS)).toEqual({
      health: "alive",
      reason: "the page shows a sign-out control",
    });
    expect(sites.accounts.attemptsFor("check-ada")).toEqual({ classic: 1 });

    await endSessions("check-ada");
    expect(await checkSession(guard, target, TIMEOUT_MS)).toEqual({
      health: "dead",
      reason: "the site sent the session to its login page",
    });
    // Without any cookie (a jar the site never set) the same page is no session either.
    expect((await checkSession(guard, { ...target, session: { cookies: [] } }, TIMEOUT_MS)).health).toBe("dead");
    // The check never logs in.
    expect(sites.accounts.attemptsFor("check-ada")).toEqual({ classic: 1 });
  });

  it("reads a sign-out control of any shape the login engine reads: a submit input labelled Logout in a form, as a database admin's page has", async () => {
    sites.accounts.addUser("check-adminer", "pw-2");
    const res = await fetch(`${sites.url}/cases/logout-input/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        "auth[server]": "localhost",
        "auth[username]": "check-adminer",
        "auth[password]": "pw-2",
      }),
    });
    expect(res.status).toBe(302);
    const [pair] = res.headers.getSetCookie()[0]!.split(";");
    const [name, value] = pair!.split("=");
    const cookies: Cookie[] = [
      {
        name: name!,
        value: value!,
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax",
      },
    ];
    const signedInPage = new URL(res.headers.get("location")!, sites.url).href;
    // The login page (the same address without the server's name) shows its form to everyone; the page the login led to signs out by an input.
    expect(
      await checkSession(
        guard,
        { session: { cookies }, signedInPage, loginPage: `${sites.url}/cases/logout-input/` },
        TIMEOUT_MS,
      ),
    ).toEqual({ health: "alive", reason: "the page shows a sign-out control" });
  });

  it("sends the credentials of a site that signs in by HTTP authentication (Basic), and reads a refusal of them as signed out", async () => {
    sites.accounts.addUser("check-basic", "pw-3");
    const page = `${sites.url}/cases/http-basic-only/admin/`;
    const target = (password: string) => ({
      session: { cookies: [], httpCredentials: { username: "check-basic", password, origin: sites.url } },
      signedInPage: page,
      loginPage: page,
      identifier: "check-basic",
    });
    expect(await checkSession(guard, target("pw-3"), TIMEOUT_MS)).toEqual({
      health: "alive",
      reason: "the page shows the account, which a visitor without the session does not get",
    });
    expect(await checkSession(guard, target("changed-since"), TIMEOUT_MS)).toEqual({
      health: "dead",
      reason: "the site answered 401 with the session's cookies",
    });
  });

  it("reads a page without a sign-out control by whether it names the account a visitor without the session does not get, and a login form in the account's place as signed out", async () => {
    const shopCookie = (value: string): Cookie[] => [
      {
        name: "sid",
        value,
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax",
      },
    ];
    const at = (page: string, value: string) =>
      checkSession(
        guard,
        {
          session: { cookies: shopCookie(value) },
          signedInPage: `${shopUrl}${page}`,
          loginPage: `${shopUrl}/login`,
          identifier: "Ada@shop.test",
        },
        TIMEOUT_MS,
      );
    expect(await at("/profile", "s-live")).toEqual({
      health: "alive",
      reason: "the page shows the account, which a visitor without the session does not get",
    });
    // Different from a visitor's page, but nothing on it is the account's: only a browser may tell.
    const differs = {
      health: "unknown",
      reason: "the page differs from a visitor's but shows neither a sign-out control nor the account",
      browserMayTell: true,
    };
    expect(await at("/account", "s-live")).toEqual(differs);
    expect(await at("/orders", "s-live")).toEqual(differs);
    // A session the site ended, answered with a page of its own that is not the visitor's: never alive.
    expect(await at("/profile", "s-ended")).toEqual(differs);
    expect(await at("/account", "s-ended")).toEqual({
      health: "dead",
      reason: "the site sent the session to its login page",
    });
    expect(await at("/orders", "s-ended")).toEqual({
      health: "dead",
      reason: "the page the account was signed in on shows a password form",
    });
  });

  it("concludes nothing where the page looks the same with and without the session, or the site is down", async () => {
    // An application that signs in in the browser (a token in localStorage): its HTML is one shell for everyone.
    expect(
      await checkSession(
        guard,
        { session: { cookies: [] }, signedInPage: `${sites.url}/spa/login`, loginPage: `${sites.url}/spa/login` },
        TIMEOUT_MS,
      ),
    ).toEqual({
      health: "unknown",
      reason: "the page looks the same with and without the session's cookies",
      browserMayTell: true,
    });
    // A session kept before its signed-in page was: its login page, which shows the form to everyone.
    const cookies = await classicSession("check-bea");
    expect(
      (await checkSession(guard, { session: { cookies }, loginPage: `${sites.url}/classic/login` }, TIMEOUT_MS)).health,
    ).toBe("unknown");
    expect(
      await checkSession(
        guard,
        { session: { cookies }, signedInPage: `${downUrl}/account`, loginPage: `${downUrl}/login` },
        TIMEOUT_MS,
      ),
    ).toEqual({ health: "unknown", reason: "the site answered 503" });
    const closed = `http://127.0.0.1:1/account`;
    expect(
      await checkSession(guard, { session: { cookies }, signedInPage: closed, loginPage: closed }, TIMEOUT_MS),
    ).toEqual({ health: "unknown", reason: "the site did not answer" });
  });

  it("reaches only what the target guard allows", async () => {
    const cookies = await classicSession("check-cy");
    const strict = new TargetGuard([]);
    expect(
      (
        await checkSession(
          strict,
          {
            session: { cookies },
            signedInPage: `${sites.url}/classic/account`,
            loginPage: `${sites.url}/classic/login`,
          },
          TIMEOUT_MS,
        )
      ).health,
    ).toBe("unknown");
  });
});
