import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestSitesApp } from "../server";
import { LOGIN_CASES, SENT_CODE_CASES } from ".";

// The registry is the one list of case modules: each case's page must be served by a router it brought.
let server: Server;
let port: number;
beforeAll(async () => {
  const { app } = createTestSitesApp();
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
});

/** The status of a GET of `url`, sent to this server under the URL's own host (as the host map would route it). */
const statusOf = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const { host, pathname, search } = new URL(url);
    const req = request({ host: "127.0.0.1", port, path: pathname + search, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject).end();
  });

describe("the fixture cases", () => {
  it("have names of their own", () => {
    const names = [...LOGIN_CASES, ...SENT_CODE_CASES].map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("each have their page served, at the URL a caller would give", async () => {
    const sitesUrl = `http://127.0.0.1:${port}`;
    const urls = [
      ...LOGIN_CASES.filter((c) => c.expect !== "form_not_found").map((c) => c.url(sitesUrl)),
      ...SENT_CODE_CASES.map((c) => `${sitesUrl}/cases/${c.name}/login`),
    ];
    const unserved: string[] = [];
    for (const url of urls) if ((await statusOf(url)) >= 400) unserved.push(url);
    expect(unserved).toEqual([]);
  });
});
