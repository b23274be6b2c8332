import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BrowserHost, chromiumPath, connectVia, ProxyFailure, TargetGuard } from "@authsvc/browser";
import { type FixtureProxies, startFixtureProxies } from "./fixture-proxies";

const chromium = chromiumPath("full");

// A page that says which address it was reached from.
let site: Server;
let port: number;
let proxies: FixtureProxies;
beforeAll(async () => {
  site = createServer((req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(`<p id="from">${req.socket.remoteAddress}</p>`),
  );
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  port = (site.address() as AddressInfo).port;
  proxies = await startFixtureProxies();
});
afterAll(async () => {
  await proxies.close();
  await new Promise<void>((r) => site.close(() => r()));
});

const fromThrough = async (url: string) => {
  const socket = await connectVia({ url }, "127.0.0.1", port);
  socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  let text = "";
  for await (const chunk of socket) text += String(chunk);
  return /<p id="from">([^<]+)</.exec(text)?.[1];
};

describe("connections through an organization's proxy", () => {
  it("leave from each proxy's own address: HTTP with Basic credentials, SOCKS5 with username and password", async () => {
    expect(await fromThrough(proxies.http.url)).toBe("127.0.0.2");
    expect(await fromThrough(proxies.socks5.url)).toBe("127.0.0.3");
  });

  it("say whose fault a failure is: credentials refused is proxy_auth_failed, a proxy away is proxy_unreachable", async () => {
    for (const url of [proxies.http.url, proxies.socks5.url]) {
      const wrong = url.replace(/:[^:@/]+@/, ":wrong-password@");
      await expect(connectVia({ url: wrong }, "127.0.0.1", port)).rejects.toMatchObject({ code: "proxy_auth_failed" });
      // The message names the proxy, never its password.
      await connectVia({ url: wrong }, "127.0.0.1", port).catch((err: ProxyFailure) =>
        expect(err.message).not.toContain("wrong-password"),
      );
    }
    await expect(connectVia({ url: "http://agent:x@127.0.0.1:1" }, "127.0.0.1", port)).rejects.toMatchObject({
      code: "proxy_unreachable",
    });
  });

  it("carry a browser context's whole traffic, the target guard's checks first", async () => {
    const host = new BrowserHost({ executablePath: chromium, guard: new TargetGuard(["loopback"]) });
    try {
      const seen = await host.withPage(
        async (page, door) => {
          expect(door).not.toBeNull();
          await page.goto(`http://127.0.0.1:${port}/`);
          return page.$eval("#from", (el) => el.textContent);
        },
        { upstream: { url: proxies.socks5.url } },
      );
      expect(seen).toBe("127.0.0.3");
      // A context without one leaves directly.
      expect(
        await host.withPage(
          async (page) => (await page.goto(`http://127.0.0.1:${port}/`), page.$eval("#from", (el) => el.textContent)),
        ),
      ).toBe("127.0.0.1");
      // A refused password is the door's failure, told apart from the site's.
      const failure = await host.withPage(
        async (page, door) => {
          await page.goto(`http://127.0.0.1:${port}/`).catch(() => undefined);
          return door!.failure()?.code;
        },
        { upstream: { url: proxies.http.url.replace(/:[^:@/]+@/, ":nope@") } },
      );
      expect(failure).toBe("proxy_auth_failed");
    } finally {
      await host.close();
    }
  });
});
