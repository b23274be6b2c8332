import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SessionResponse } from "@authsvc/contracts";
import { storedSessionSignedIn } from "./second-look";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
let portal: Server;
let portalUrl: string;

beforeAll(async () => {
  // A site whose login address sends everyone on to its home page, which has no form (sign-in is a dialog there).
  portal = createServer((req, res) => {
    if (req.url === "/login") return res.writeHead(302, { location: "/home" }).end();
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>Home</title><h1>Welcome to the portal</h1><p>News of the week.</p>");
  });
  await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
  portalUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => portal.close(resolve)));

/** Signs in to the single-page app as its script does (its JSON API), and keeps what the browser would: the token in localStorage. */
async function spaSession(username: string): Promise<SessionResponse> {
  env.sites.accounts.addUser(username, "pw-1");
  const res = await fetch(`${env.sites.url}/spa/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: "pw-1" }),
  });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  return {
    cookies: [],
    origins: [env.sites.url],
    storageState: {
      cookies: [],
      origins: [{ origin: env.sites.url, localStorage: [{ name: "spa_token", value: token }] }],
    },
  };
}

const check = (session: SessionResponse) =>
  env.host.withPage((page) =>
    storedSessionSignedIn(page, session, `${env.sites.url}/spa/login`, env.guard, FLOW_DEADLINE_MS),
  );

describe("storedSessionSignedIn (keep-alive's browser check)", () => {
  it("finds an app signed in from storage signed in, and signed out once the site ended its sessions", async () => {
    const session = await spaSession("stored-ada");
    expect(await check(session)).toBe(true);
    env.sites.accounts.endSessionsOf("stored-ada");
    expect(await check(session)).toBe(false);
    // Checking never logs in.
    expect(env.sites.accounts.attemptsFor("stored-ada")).toEqual({ spa: 1 });
  });

  it("proves nothing on a site whose login address sends everyone on, session or not", async () => {
    const cookies = [
      {
        name: "sid",
        value: "revoked",
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax" as const,
      },
    ];
    const session: SessionResponse = { cookies, origins: [portalUrl], storageState: { cookies, origins: [] } };
    expect(
      await env.host.withPage((page) =>
        storedSessionSignedIn(page, session, `${portalUrl}/login`, env.guard, FLOW_DEADLINE_MS),
      ),
    ).toBeNull();
  });

  it("does not judge a session kept in IndexedDB, which it does not restore", async () => {
    const session = await spaSession("stored-bea");
    session.storageState.origins[0]!.indexedDB = [{ name: "auth", version: 1, stores: [] }];
    expect(await check(session)).toBeNull();
  });

  it("opens the session with the User-Agent it was made with, on a site that binds its sessions to it", async () => {
    env.sites.accounts.addUser("stored-cy", "pw-1");
    const userAgent =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    const login = await fetch(`${env.sites.url}/cases/ua-bound/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent },
      body: "username=stored-cy&password=pw-1",
      redirect: "manual",
    });
    const sid = /ua_bound_sid=([^;]+)/.exec(login.headers.get("set-cookie") ?? "")![1]!;
    const cookies = [
      {
        name: "ua_bound_sid",
        value: sid,
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax" as const,
      },
    ];
    const session: SessionResponse = {
      cookies,
      origins: [env.sites.url],
      storageState: { cookies, origins: [] },
      userAgent,
    };
    const at = `${env.sites.url}/cases/ua-bound/account`;
    expect(
      await env.host.withPage((page) => storedSessionSignedIn(page, session, at, env.guard, FLOW_DEADLINE_MS)),
    ).toBe(true);
    // Without it the browser is another one to the site, which signs the session out.
    expect(
      await env.host.withPage((page) =>
        storedSessionSignedIn(page, { ...session, userAgent: undefined }, at, env.guard, FLOW_DEADLINE_MS),
      ),
    ).toBe(false);
  });
});
