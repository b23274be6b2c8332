import { call, runScript } from "@authsvc/devstack";

/** Runs `pnpm cli …` as an operator would, with the stack's environment. */
const cli = (...args: string[]) => runScript("apps/cli/src/main.ts", args);

describe("pnpm cli", () => {
  it("creates an organization and a key that works, lists it without the secret, and revokes it", async () => {
    const org = JSON.parse((await cli("org", "create", "CLI org", "--json")).stdout) as { id: string };
    expect(org.id).toMatch(/^org_/);
    const created = await cli("key", "create", "--org", org.id, "--name", "ci");
    const key = /pk_[0-9A-Za-z]{43}/.exec(created.stdout)![0];
    expect(created.stdout).toMatch(/shown only this once/);

    expect((await call("POST", "/v1/login", { key, body: {} })).status).toBe(400); // authenticated
    const listed = await cli("key", "list", "--org", org.id);
    expect(listed.stdout).toContain(key.slice(0, 15));
    expect(listed.stdout).not.toContain(key);

    const keyId = /key_[0-9A-Za-z]+/.exec(created.stdout)![0];
    expect((await cli("key", "revoke", keyId)).code).toBe(0);
    expect((await call("POST", "/v1/login", { key, body: {} })).status).toBe(401);
  });

  it("says what is wrong, with usage, and exits non-zero", async () => {
    const noOrg = await cli("key", "create");
    expect([noOrg.code, noOrg.stderr]).toEqual([2, expect.stringMatching(/--org/)]);
    const unknown = await cli("key", "create", "--org", "org_doesnotexist");
    expect(unknown.stderr).toMatch(/no organization org_doesnotexist/);
    const nonsense = await cli("frobnicate");
    expect([nonsense.code, nonsense.stderr]).toEqual([2, expect.stringMatching(/usage:/)]);
  });
});
