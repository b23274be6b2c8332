import { call, closeDatabase, database, newSiteUser, newTenant, redesignFixture, sitesUrl } from "@authsvc/devstack";

// Learned flows through the service: stored per organization and login page, without any secret,
// replayed on the next login, and replaced when the page changed.
let key: string;
let orgId: string;
const page = () => `${sitesUrl()}/cases/redesign/login`;

beforeAll(async () => {
  ({ key, orgId } = await newTenant("Learned flows org"));
  await redesignFixture(1);
});
afterAll(async () => {
  await redesignFixture(1);
  await closeDatabase();
});

async function loginOnce(user: { username: string; password: string }, apiKey = key) {
  const res = await call("POST", "/v1/login", {
    key: apiKey,
    body: { domain: page(), login_method: "password", cred: user, useCache: false },
  });
  expect(res.status).toBe(200);
  return res;
}

async function flowSourceOf(res: { headers: Headers }, org = orgId): Promise<string | null | undefined> {
  return (await database().authJobs.find(org, res.headers.get("x-job-id")!))?.flowSource;
}

describe("learned flows", () => {
  it("learns a flow without secrets, replays it next time, and relearns when the page is redesigned", async () => {
    const user = await newSiteUser("learned-secret-pw");
    const first = await loginOnce(user);
    expect(await flowSourceOf(first)).toBe("detected");
    const stored = await database().learnedFlows.find(orgId, page());
    expect(stored).toMatchObject({
      version: 1,
      steps: expect.arrayContaining([expect.objectContaining({ action: "type", value: "password" })]),
    });
    const text = JSON.stringify(stored);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(user.username);

    const second = await loginOnce(user);
    expect(await flowSourceOf(second)).toBe("learned");

    await redesignFixture(2);
    const third = await loginOnce(user);
    expect(await flowSourceOf(third)).toBe("relearned");
    const relearned = await database().learnedFlows.find(orgId, page());
    expect(JSON.stringify(relearned)).toContain("login-secret");
    const fourth = await loginOnce(user);
    expect(await flowSourceOf(fourth)).toBe("learned");
  });

  it("keeps each organization's flows to itself", async () => {
    const other = await newTenant("Other learned org");
    const user = await newSiteUser("other-org-pw");
    const res = await loginOnce(user, other.key);
    // The first organization learned this page above; the other one starts from detection.
    expect(await flowSourceOf(res, other.orgId)).toBe("detected");
  });
});
