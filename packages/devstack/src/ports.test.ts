import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { choosePort, freePort } from "./ports";

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe("choosePort", () => {
  it("keeps a fixed port that is free", async () => {
    const port = await freePort();
    expect(await choosePort({ WORKER_HEALTH_PORT: String(port) }, "WORKER_HEALTH_PORT", true)).toBe(String(port));
  });

  it("moves an internal health port that another program holds to a free one", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    const chosen = await choosePort({ MAIL_HEALTH_PORT: String(busyPort) }, "MAIL_HEALTH_PORT", true);
    expect(chosen).not.toBe(String(busyPort));
    expect(warn).toHaveBeenCalledWith(
      `port ${busyPort} (MAIL_HEALTH_PORT) is taken by another program; using ${chosen}`,
    );
    warn.mockRestore();
  });

  it("names a taken port people use instead of moving it", async () => {
    await expect(choosePort({ GATEWAY_PORT: String(busyPort) }, "GATEWAY_PORT", false)).rejects.toThrow(
      `port ${busyPort} (GATEWAY_PORT) is taken by another program on this machine: stop it, or set GATEWAY_PORT to a free port`,
    );
  });

  it("takes any free port when none is fixed", async () => {
    expect(Number(await choosePort({}, "GATEWAY_PORT", false))).toBeGreaterThan(0);
  });
});

describe("freePort", () => {
  it("gives a port below the range outgoing connections take theirs from, so none takes it before its process listens", async () => {
    const lo = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(lo);
    }
  });
});
