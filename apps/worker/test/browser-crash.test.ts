import { execFileSync } from "node:child_process";
import { attempts, call, closeDatabase, loginBody, newSiteUser, newTenant } from "@authsvc/devstack";

afterAll(closeDatabase);

function chromiumPidsOf(parentPid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(parentPid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number)
      .filter((pid) => execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).includes("chrom"));
  } catch {
    return [];
  }
}

describe("worker browser", () => {
  it("relaunches Chromium after it dies and keeps serving logins", async () => {
    const { key } = await newTenant("Crash org");
    const workerPid = Number(process.env.E2E_WORKER_PID);
    const before = chromiumPidsOf(workerPid);
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, "SIGKILL");

    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(res.status).toBe(200);
    expect(await attempts(user.username)).toEqual({ classic: 1 });
    const after = chromiumPidsOf(workerPid);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
  });
});
