import { waitFor } from "@authsvc/waiting";
import { createServer, request, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { chromiumPath } from "@authsvc/config";
import { BrowserHost } from "./browser-host";
import { EgressProxy, type EgressRefusal } from "./egress-proxy";
import { HostMap, TargetGuard } from "@authsvc/egress";
import type { Page } from "puppeteer-core";

const chromium = chromiumPath("full");

// The page a hostile target could serve: it reaches for private and metadata addresses in the ways that
// per-page request interception cannot see.
const HOSTILE_PAGE = `<!doctype html><p>hi</p><script>
  new Worker(URL.createObjectURL(new Blob(["fetch('http://10.255.255.1/from-worker').catch(() => {})"], { type: "text/javascript" })));
  try { new WebSocket("ws://10.255.255.2/socket"); } catch (e) {}
  window.open("http://169.254.169.254/latest/meta-data/");
</script>`;

let site: Server;
let siteUrl: string;
beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(req.url === "/hostile" ? HOSTILE_PAGE : "<p>plain</p>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

function connectThrough(proxy: string, authority: string): Promise<number> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: "CONNECT", path: authority });
    req.once("connect", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.once("response", (res) => resolve(res.statusCode ?? 0));
    req.once("error", reject);
    req.end();
  });
}

describe("EgressProxy", () => {
  it("stops what page-level interception cannot see: workers, WebSockets and popups", async () => {
    const refused: EgressRefusal[] = [];
    const hostile = () => [...new Set(refused.map((r) => r.host).filter((h) => /^\d/.test(h)))];
    const host = new BrowserHost({
      executablePath: chromium,
      guard: new TargetGuard(["loopback"]),
      onEgressRefused: (r) => refused.push(r),
    });
    try {
      await host.withPage(async (page) => {
        const popup = new Promise<Page | null>((resolve) => page.once("popup", resolve));
        await page.goto(`${siteUrl}/hostile`);
        // A bound for a broken proxy only: the three refusals come within a second on a quiet machine.
        const until = Date.now() + 30_000;
        await waitFor("the page's three requests refused", () => hostile().length >= 3, { timeoutMs: 30_000 });
        // Let the popup's own page set-up finish: jest, unlike the worker, fails on the stealth plugin's
        // unawaited commands to a page closed under them. Its last one (and the only one it does not await)
        // overrides the user agent, which the popup's navigator shows once it has landed.
        const opened = await Promise.race([
          popup,
          new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, until - Date.now())).unref()),
        ]);
        const userAgent = () => opened?.evaluate(() => navigator.userAgent).catch(() => null) ?? null;
        while (opened && Date.now() < until && ((await userAgent()) ?? "HeadlessChrome").includes("HeadlessChrome"))
          await new Promise((r) => setTimeout(r, 20));
      });
    } finally {
      await host.close();
    }
    // Chromium's own background calls to Google also pass the proxy (and fail to resolve here); only ours count.
    expect(hostile().sort()).toEqual(["10.255.255.1", "10.255.255.2", "169.254.169.254"]);
  });

  it("connects to the address it checked, so a name cannot resolve differently behind its back", async () => {
    // Only the proxy's own resolver knows these names: a tunnel that works proves it did not look up again.
    const names: Record<string, string[]> = {
      "site.test": ["127.0.0.1"],
      "rebind.test": ["10.0.0.7"],
      "mixed.test": ["127.0.0.1", "10.0.0.7"],
    };
    const guard = new TargetGuard(["loopback"], async (name) => names[name] ?? []);
    const proxy = new EgressProxy(guard);
    const url = await proxy.start();
    try {
      const port = new URL(siteUrl).port;
      expect(await connectThrough(url, `site.test:${port}`)).toBe(200);
      expect(await connectThrough(url, `rebind.test:${port}`)).toBe(403);
      expect(await connectThrough(url, `mixed.test:${port}`)).toBe(403);
      expect(await connectThrough(url, "[::1]:1")).not.toBe(200); // allowed, but nothing listens: 502
    } finally {
      await proxy.close();
    }
  });

  it("forwards plain HTTP only to checked addresses, keeping the Host header", async () => {
    const proxy = new EgressProxy(new TargetGuard(["loopback"], async () => ["127.0.0.1"]));
    const url = new URL(await proxy.start());
    const get = (target: string) =>
      new Promise<number>((resolve, reject) => {
        request(
          { host: url.hostname, port: url.port, path: target, headers: { host: new URL(target).host } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
          .once("error", reject)
          .end();
      });
    try {
      expect(await get(`${siteUrl}/plain`)).toBe(200);
      expect(await get("http://10.1.2.3/")).toBe(403);
      expect(await get("http://169.254.169.254/latest/meta-data/")).toBe(403);
    } finally {
      await proxy.close();
    }
  });

  it("answers nonsense from a remote server with 502 and stays up; refuses impossible ports", async () => {
    const liar: TcpServer = createTcpServer((socket) =>
      socket.end("HTTP/1.1 099 Nonsense\r\nContent-Length: 0\r\n\r\n"),
    );
    await new Promise<void>((r) => liar.listen(0, "127.0.0.1", r));
    const proxy = new EgressProxy(new TargetGuard(["loopback"]));
    const url = new URL(await proxy.start());
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const target = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/`;
        request({ host: url.hostname, port: url.port, path: target }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .once("error", reject)
          .end();
      });
      expect(status).toBe(502);
      expect(await connectThrough(url.toString(), "127.0.0.1:99999")).toBe(400);
      expect(await connectThrough(url.toString(), "127.0.0.1:0")).toBe(400);
      expect(await connectThrough(url.toString(), "no-port")).toBe(400);
    } finally {
      await proxy.close();
      liar.close();
    }
  });

  it("tries every checked address in turn", async () => {
    // Nothing listens on [::1] at the site's port, so only the second address can answer.
    const proxy = new EgressProxy(new TargetGuard(["loopback"], async () => ["::1", "127.0.0.1"]));
    const url = await proxy.start();
    try {
      expect(await connectThrough(url, `two.test:${new URL(siteUrl).port}`)).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("closes the upstream connection when the browser side goes away", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    const stream = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: hello\n\n"); // and never ends, like an event stream
      req.socket.once("close", upstreamClosed);
    });
    await new Promise<void>((r) => stream.listen(0, "127.0.0.1", r));
    const proxy = new EgressProxy(new TargetGuard(["loopback"]));
    const url = new URL(await proxy.start());
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: `http://127.0.0.1:${(stream.address() as AddressInfo).port}/events`,
          },
          (res) => {
            res.once("data", () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.once("error", () => undefined);
        req.end();
        // A bound for a broken proxy only (the data passes in milliseconds), well inside the test's own timeout.
        setTimeout(() => reject(new Error("no data through the proxy")), 30_000).unref();
      });
      await closed;
    } finally {
      await proxy.close();
      stream.close();
    }
  });
});

describe("EgressProxy with a host map", () => {
  let fixture: Server;
  let seen: Array<{ host?: string; url?: string }>;
  beforeAll(async () => {
    seen = [];
    fixture = createServer((req, res) => {
      seen.push({ host: req.headers.host, url: req.url });
      res.writeHead(200, { "content-type": "text/plain" }).end(`fixture for ${req.headers.host}`);
    });
    await new Promise<void>((r) => fixture.listen(0, "127.0.0.1", r));
  });
  afterAll(() => new Promise<void>((r) => fixture.close(() => r())));

  function getThrough(proxy: string, target: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(proxy);
    return new Promise((resolve, reject) => {
      request({ host: hostname, port, path: target, headers: { host: new URL(target).host } }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .once("error", reject)
        .end();
    });
  }

  it("takes a mapped name's plain HTTP to the fixture's port, Host header kept; unmapped names go where DNS says", async () => {
    const fixturePort = (fixture.address() as AddressInfo).port;
    const map = HostMap.parse(`accounts.google.com=127.0.0.1:${fixturePort}`);
    // "DNS" sends every other name to a private address, which the guard refuses.
    const guard = new TargetGuard(["loopback"], async () => ["10.0.0.7"], map);
    const refused: EgressRefusal[] = [];
    const proxy = new EgressProxy(guard, (r) => refused.push(r));
    const url = await proxy.start();
    try {
      expect(await getThrough(url, "http://accounts.google.com/o/oauth2/v2/auth?x=1")).toEqual({
        status: 200,
        body: "fixture for accounts.google.com",
      });
      expect(seen.at(-1)).toEqual({ host: "accounts.google.com", url: "/o/oauth2/v2/auth?x=1" });
      expect((await getThrough(url, "http://github.com/login")).status).toBe(403);
      expect(refused.map((r) => r.host)).toEqual(["github.com"]);
      // HTTPS and WebSockets to the mapped name tunnel to the fixture too; other ports of the name stay as they are.
      expect(await connectThrough(url, "accounts.google.com:443")).toBe(200);
      expect(await connectThrough(url, "accounts.google.com:80")).toBe(200);
      expect(await connectThrough(url, `accounts.google.com:${fixturePort}`)).toBe(200);
      expect(await connectThrough(url, "accounts.google.com:1")).toBe(502);
    } finally {
      await proxy.close();
    }
  });

  it("still refuses a mapped name when loopback is not allowed", async () => {
    const map = HostMap.parse(`accounts.google.com=127.0.0.1:${(fixture.address() as AddressInfo).port}`);
    const proxy = new EgressProxy(new TargetGuard([], async () => ["93.184.216.34"], map));
    const url = await proxy.start();
    try {
      expect((await getThrough(url, "http://accounts.google.com/")).status).toBe(403);
    } finally {
      await proxy.close();
    }
  });
});
