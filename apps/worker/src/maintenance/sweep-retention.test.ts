import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { freshTestDatabase, recordPastJobs } from "@authsvc/devstack";
import { sweepRetention } from "./sweep-retention";

let db: Database;

beforeAll(async () => {
  db = Database.fromConfig(loadConfig(await freshTestDatabase("unit_retention")), 2);
});
afterAll(() => db.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("sweepRetention", () => {
  it("deletes sessions some hours after expiry, finished job records and received messages after their retention", async () => {
    const now = Date.now();
    const org = await db.organizations.create("Retention org");
    const cred = await db.credentials.ensure({ orgId: org.id, loginUrl: "https://a.test/login", username: "u" });
    const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } };
    const session = (expiresAt: number) =>
      db.sessions.create({
        orgId: org.id,
        credentialId: cred.id,
        origin: "https://a.test",
        state,
        expiresAt: new Date(expiresAt),
      });
    const live = await session(now + HOUR);
    const justExpired = await session(now - HOUR);
    const longExpired = await session(now - 2 * DAY);

    const job = async (finishedDaysAgo: number | null) => {
      const row = await db.jobLifecycle.create({
        orgId: org.id,
        credentialId: cred.id,
        kind: "login",
        method: "password",
        loginUrl: "https://a.test/login",
        fingerprint: "fp",
        useCache: true,
        input: { kind: "login", method: "password", password: "p" },
      });
      if (finishedDaysAgo !== null) {
        await db.jobLifecycle.fail(row.id, "unrun", "invalid_credentials", "no");
        await db.prisma.authJob.update({
          where: { id: row.id },
          data: { finishedAt: new Date(now - finishedDaysAgo * DAY) },
        });
      }
      return row.id;
    };
    const recent = await job(1);
    const old = await job(40);
    const open = await job(null);
    // A failed job's screenshot lives as long as its record.
    const shot = { image: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), contentType: "image/jpeg" };
    await db.jobScreenshots.save(org.id, recent, shot);
    await db.jobScreenshots.save(org.id, old, shot);
    await db.prisma.authJob.update({ where: { id: open }, data: { createdAt: new Date(now - 60 * DAY) } });

    const mailbox = await db.mailboxes.create(org.id, `sweep-${now}@mail.localhost`);
    const content = { from: "site@a.test", subject: "Your code", text: "Your code is 123456", html: "" };
    const freshMessage = await db.inboundMessages.store(org.id, { mailboxId: mailbox.id }, mailbox.address, content);
    const oldMessage = await db.inboundMessages.store(org.id, { mailboxId: mailbox.id }, mailbox.address, content);
    await db.prisma.inboundMessage.update({
      where: { id: oldMessage.id },
      data: { receivedAt: new Date(now - 2 * HOUR) },
    });

    const provider = (account: string, expiresAt: number) =>
      db.providerSessions.save(
        { orgId: org.id, scope: "", provider: "google", account },
        [
          {
            name: "SID",
            value: "v",
            domain: "accounts.google.com",
            path: "/",
            expires: -1,
            httpOnly: true,
            secure: true,
            sameSite: "Lax",
          },
        ],
        new Date(expiresAt),
      );
    await provider("kept@gmail.test", now - HOUR);
    await provider("ended@gmail.test", now - 2 * DAY);

    const user = await db.dashboardUsers.create(`sweep-${now}@example.test`, "scrypt$1$1$1$AA$AA");
    const signedIn = await db.dashboardSessions.create(user.id, HOUR);
    const signedOut = await db.dashboardSessions.create(user.id, HOUR);
    await db.prisma.dashboardSession.update({
      where: { id: signedOut.session.id },
      data: { expiresAt: new Date(now - 1000) },
    });

    // The hourly counts go with the records, but never within the 8 days the charts read; those per site
    // (a row per job, for a long tail of sites) once the charts no longer read them.
    await recordPastJobs(
      db,
      org.id,
      [2, 7, 9].map((days) => ({
        loginUrl: "https://a.test/login",
        outcome: "succeeded",
        finishedAt: new Date(now - days * DAY),
      })),
    );
    await db.jobStats.recompute(new Date(now - 10 * DAY), new Date(now));
    const days = (rows: Array<{ hour: Date }>) => rows.map((r) => Math.round((now - r.hour.getTime()) / DAY));
    const statDays = async () =>
      days(
        await db.prisma.jobStatHour.findMany({
          where: { orgId: org.id, outcome: "succeeded" },
          orderBy: { hour: "desc" },
        }),
      );
    const siteStatDays = async () =>
      days(
        await db.prisma.jobStatSiteHour.findMany({
          where: { orgId: org.id, outcome: "succeeded" },
          orderBy: { hour: "desc" },
        }),
      );
    expect(await sweepRetention(db, { sessionHours: 24, jobDays: 30, messageMinutes: 60 }, now)).toEqual({
      sessions: 1,
      providerSessions: 1,
      jobs: 1,
      jobStatHours: 1,
      messages: 1,
      dashboardSessions: 1,
    });
    expect(await db.dashboardSessions.find(signedIn.token)).not.toBeNull();
    const kept = await db.prisma.providerSession.findMany({ where: { orgId: org.id }, select: { account: true } });
    expect(kept).toEqual([{ account: "kept@gmail.test" }]);
    const left = await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, new Date(0));
    expect(left.map((m) => m.id)).toEqual([freshMessage.id]);
    expect(left[0]).toMatchObject(content);
    expect(await db.sessions.findState(org.id, live)).not.toBeNull();
    expect(await db.sessions.findState(org.id, justExpired)).not.toBeNull();
    expect(await db.sessions.findState(org.id, longExpired)).toBeNull();
    expect(await db.authJobs.find(org.id, recent)).not.toBeNull();
    expect(await db.authJobs.find(org.id, old)).toBeNull();
    expect(await db.jobScreenshots.find(org.id, old)).toBeNull();
    expect((await db.jobScreenshots.find(org.id, recent))?.image).toEqual(shot.image);
    expect(await db.authJobs.find(org.id, open)).not.toBeNull(); // never delete a job that has not ended
    expect([await statDays(), await siteStatDays()]).toEqual([
      [2, 7, 9],
      [2, 7],
    ]);
    expect(await sweepRetention(db, { sessionHours: 24, jobDays: 1, messageMinutes: 60 }, now)).toMatchObject({
      jobStatHours: 1,
    });
    expect([await statDays(), await siteStatDays()]).toEqual([
      [2, 7],
      [2, 7],
    ]);
  });
});
