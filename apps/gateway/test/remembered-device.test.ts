import { newTotpSecret } from "@authsvc/crypto";
import { call, closeDatabase, database, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

// A site that asks its authenticator's code of every device it does not know, and remembers the one that
// answered it (the trusted-device fixture). The service keeps that memory with the credential.
let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Remembered device org");
});
afterAll(() => closeDatabase());

const loginUrl = () => `${sitesUrl()}/cases/trusted-device/login`;
const deviceLog = async (username: string) =>
  (await (await fetch(`${sitesUrl()}/__fixture/device-prompts/${encodeURIComponent(username)}`)).json()) as {
    prompts: number;
    views: number;
  };
const prompts = async (username: string) => (await deviceLog(username)).prompts;
const signsIn = async (cookies: Array<{ name: string; value: string }>) =>
  (
    await fetch(`${sitesUrl()}/cases/trusted-device/account`, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    })
  ).status === 200;

describe("a remembered device", () => {
  it("ten logins and refreshes of one credential meet the site's second factor once; forgotten, the next login meets it again", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const login = () =>
      call("POST", "/v1/login", {
        key: tenant.key,
        body: { domain: loginUrl(), login_method: "password", cred: { ...user, totpSecret }, useCache: false },
      });

    const first = await login();
    expect(first.status).toBe(200);
    expect(await signsIn(first.body.cookies)).toBe(true);
    const listed = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials as Array<{
      credentialId: string;
      username: string;
    }>;
    const credentialId = listed.find((c) => c.username === user.username)!.credentialId;
    const credential = async () => (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body;
    expect((await credential()).deviceRememberedAt).toEqual(expect.any(String));

    // Logins and refreshes, one after another: each signs in, none meets the code again. The device's cookies
    // are known after the first: each opens the login page once, even though the site's analytics cookie (a
    // long-lived one) has a new value each time; no look tells the cookies apart again.
    const viewsBefore = (await deviceLog(user.username)).views;
    for (let i = 0; i < 9; i++) {
      const res =
        i % 2 === 0 ? await login() : await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
      expect([i, res.status]).toEqual([i, 200]);
      expect(await signsIn(res.body.cookies)).toBe(true);
    }
    expect(await deviceLog(user.username)).toMatchObject({ prompts: 1, views: viewsBefore + 9 });

    // Kept encrypted: the device cookie's value is nowhere in the row in clear.
    const device = first.body.cookies.find((c: { name: string }) => c.name === "known_device");
    expect(device).toBeDefined();
    const row = await database().prisma.credential.findUniqueOrThrow({
      where: { id: credentialId },
      select: { device: true },
    });
    expect(row.device).toEqual(expect.any(String));
    expect(row.device).not.toContain(device.value);

    // Forgotten: the next login is a new device's, and meets the code again (then is remembered again).
    expect((await call("DELETE", `/v1/credentials/${credentialId}/device`, { key: tenant.key })).status).toBe(204);
    expect((await credential()).deviceRememberedAt).toBeNull();
    const after = await login();
    expect(after.status).toBe(200);
    expect(await prompts(user.username)).toBe(2);
    expect((await credential()).deviceRememberedAt).toEqual(expect.any(String));
    // Another org cannot forget it.
    const other = await newTenant("Not the device's org");
    expect((await call("DELETE", `/v1/credentials/${credentialId}/device`, { key: other.key })).status).toBe(404);
  });
});
