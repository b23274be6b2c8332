import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createTransport } from "nodemailer";
import type { SMTPServer } from "smtp-server";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { freshTestDatabase, REDIS_URL } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { createRedis, InboxEvents, notifyInbox, redisReady } from "@authsvc/queue";
import { SiteDns } from "@authsvc/test-sites";
import { authenticateMail, mailDnsResolver } from "./authenticate-mail";
import { createMailServer } from "./mail-server";
import { mailboxAddressOf } from "./mailbox-address";
import { originalRecipientsOf } from "./original-recipients";

const DOMAIN = "mail.test-inbox.localhost";
const PREFIX = `mailin-test-${process.pid}`;
let db: Database;
let server: SMTPServer;
let port: number;
let dns: SiteDns;
const publisher = createRedis(REDIS_URL, "producer", "mailin-test");
const subscriber = createRedis(REDIS_URL, "blocking", "mailin-test-sub");
const outcomes: string[] = [];
const timesOutOnce = new Set<string>();

beforeAll(async () => {
  db = Database.fromConfig(loadConfig(await freshTestDatabase("unit_mailin")), 3);
  await Promise.all([redisReady(publisher), redisReady(subscriber)]);
  dns = await SiteDns.start();
  const published = mailDnsResolver({ dnsServers: [dns.server] });
  // The test DNS, where a name in `timesOutOnce` times out at its next lookup (a resolver under load).
  const resolver: typeof published = (name, rrtype) =>
    timesOutOnce.delete(name)
      ? Promise.reject(Object.assign(new Error(`queryTxt ETIMEOUT ${name}`), { code: "ETIMEOUT" }))
      : published(name, rrtype);
  server = createMailServer({
    db,
    domain: DOMAIN,
    maxBytes: 64 * 1024,
    notify: (mailboxId, messageId) => notifyInbox(publisher, PREFIX, mailboxId, messageId),
    log: createLogger("mail-in", "silent"),
    onMessage: (outcome) => outcomes.push(outcome),
    authenticate: (raw) => authenticateMail(raw, resolver, ["google.com"]),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all([db.close(), publisher.quit(), subscriber.quit(), dns.close()]);
});

const send = (message: {
  to: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  from?: string;
  headers?: Record<string, string>;
  envelope?: { from: string; to: string[] };
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}) =>
  createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    tls: { rejectUnauthorized: false },
  }).sendMail({
    from: message.from ?? "Acme <no-reply@acme.example>",
    subject: "Your sign-in code",
    ...message,
  });

async function newMailbox(local: string, forwarding = false) {
  const org = await db.organizations.create(`Mail org ${local}`);
  const mailbox = await db.mailboxes.create(
    org.id,
    `${local}-${Date.now().toString(36)}@${DOMAIN}`,
    undefined,
    forwarding,
  );
  return { org, mailbox };
}

/** A DKIM key of `domain`, published in the test DNS, as nodemailer signs with it. */
function dkimOf(domain: string) {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  dns.setTxt(
    `s1._domainkey.${domain}`,
    `v=DKIM1; k=rsa; p=${pair.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`,
  );
  return {
    domainName: domain,
    keySelector: "s1",
    privateKey: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

describe("mail-in SMTP server", () => {
  it("stores mail for a mailbox encrypted, for its organization, and wakes waiting flows at once", async () => {
    const { org, mailbox } = await newMailbox("agent");
    const events = new InboxEvents(subscriber, PREFIX);
    const watch = await events.watch(mailbox.id);
    const since = await db.inboundMessages.now();
    const info = await send({
      to: mailbox.address.toUpperCase(),
      text: "Your Acme code is 482913.",
      html: "<p>Your Acme code is <b>482913</b>.</p>",
    });
    expect(info.accepted).toHaveLength(1);
    expect(await watch.next(30_000)).toBe(true); // a bound for a lost wake-up only
    await watch.close();

    const [message, ...more] = await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since);
    expect(more).toHaveLength(0);
    expect(message).toMatchObject({
      from: "no-reply@acme.example",
      subject: "Your sign-in code",
      text: expect.stringContaining("482913"),
    });
    expect(message!.html).toContain("<b>482913</b>");
    expect(message!.receivedAt.getTime()).toBeGreaterThanOrEqual(since.getTime());

    const raw = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: message!.id } });
    expect(raw.orgId).toBe(org.id);
    expect(raw.body).not.toMatch(/482913|sign-in|acme/i);
    // Bound to its organization: another org's id does not decrypt it.
    const other = await db.organizations.create("Other org");
    await db.prisma.inboundMessage.update({ where: { id: raw.id }, data: { orgId: other.id } });
    await expect(db.inboundMessages.since(other.id, { mailboxId: mailbox.id }, since)).rejects.toThrow();
  });

  it("delivers subaddresses (agent+site@) to the mailbox, remembering which tag each went to", async () => {
    const { org, mailbox } = await newMailbox("plus");
    const since = await db.inboundMessages.now();
    const [local] = mailbox.address.split("@");
    await send({ to: `${local}+Shop@${DOMAIN}`, text: "Code: 1234" });
    await send({ to: `${local}+other@${DOMAIN}`, text: "Code: 5678" });
    expect(await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since)).toHaveLength(2);
    // A login that gave the site agent+shop@ reads only what was sent there.
    const forShop = await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since, {
      recipient: `${local}+shop@${DOMAIN}`,
    });
    expect(forShop.map((m) => m.text.trim())).toEqual(["Code: 1234"]);
  });

  it("keeps the original recipients of mail a Gmail account forwarded, and reads each address's own", async () => {
    const { org, mailbox } = await newMailbox("fwd");
    const since = await db.inboundMessages.now();
    // As Gmail forwards: the envelope goes to our address; To stays the original, with the added headers.
    const forwarded = (original: string, code: string) =>
      send({
        to: original,
        envelope: { from: "no-reply@acme.example", to: [mailbox.address] },
        headers: {
          "Delivered-To": original,
          "X-Forwarded-To": mailbox.address,
          "X-Forwarded-For": `${original} ${mailbox.address}`,
        },
        text: `Code: ${code}`,
      });
    await forwarded("Agent.One@Agents.Example", "1111");
    await forwarded("agent.two+shop@agents.example", "2222");
    const [one, two] = await db.prisma.inboundMessage.findMany({
      where: { mailboxId: mailbox.id },
      orderBy: { receivedAt: "asc" },
    });
    expect(one).toMatchObject({ recipient: mailbox.address, originalRecipients: ["agent.one@agents.example"] });
    expect(two!.originalRecipients).toEqual(["agent.two+shop@agents.example"]);
    const read = async (address: string) =>
      (await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since, { originalRecipient: address })).map(
        (m) => m.text.trim(),
      );
    expect(await read("agent.one@agents.example")).toEqual(["Code: 1111"]);
    // An untagged address reads its tagged mail too; a tagged one only its own tag.
    expect(await read("agent.two@agents.example")).toEqual(["Code: 2222"]);
    expect(await read("agent.two+other@agents.example")).toEqual([]);
    expect(await read("someone@agents.example")).toEqual([]);
  });

  it("records which domains signed the mail of a forwarding inbox (a forged From: signs for nothing); mail to a mailbox directly is not checked", async () => {
    const acme = dkimOf("acme.test");
    const forwarding = await newMailbox("fwd-auth", true);
    const direct = await newMailbox("direct-auth");
    const since = await db.inboundMessages.now();
    const original = "agent@agents.example";
    const headers = { "Delivered-To": original, "X-Forwarded-To": forwarding.mailbox.address };
    const envelope = { from: "no-reply@acme.test", to: [forwarding.mailbox.address] };
    await send({ to: original, envelope, headers, from: "Acme <no-reply@acme.test>", text: "Code: 1111", dkim: acme });
    await send({ to: original, envelope, headers, from: "Acme <no-reply@acme.test>", text: "Code: 2222" });
    await send({
      to: original,
      envelope,
      headers,
      from: "Acme <no-reply@acme.test>",
      text: "Code: 3333",
      dkim: dkimOf("forger.test"),
    });
    const read = await db.inboundMessages.since(forwarding.org.id, { mailboxId: forwarding.mailbox.id }, since, {
      originalRecipient: original,
    });
    expect(read.map((m) => [m.text.trim(), m.authenticated])).toEqual([
      ["Code: 1111", { dkim: ["acme.test"], arc: [] }],
      ["Code: 2222", { dkim: [], arc: [] }],
      ["Code: 3333", { dkim: ["forger.test"], arc: [] }],
    ]);
    await send({ to: direct.mailbox.address, from: "Acme <no-reply@acme.test>", text: "Code: 4444", dkim: acme });
    const [mail] = await db.inboundMessages.since(direct.org.id, { mailboxId: direct.mailbox.id }, since);
    expect(mail).toMatchObject({ text: expect.stringContaining("4444") });
    expect(mail!.authenticated).toBeUndefined();
  });

  it("answers 451 to forwarded mail whose DKIM key lookup timed out, storing nothing, and takes it authenticated when sent again", async () => {
    const acme = dkimOf("acme.test");
    const { org, mailbox } = await newMailbox("fwd-later", true);
    const since = await db.inboundMessages.now();
    const original = "agent@agents.example";
    const mail = {
      to: original,
      envelope: { from: "no-reply@acme.test", to: [mailbox.address] },
      headers: { "Delivered-To": original },
      from: "Acme <no-reply@acme.test>",
      text: "Code: 5555",
      dkim: acme,
    };
    timesOutOnce.add("s1._domainkey.acme.test");
    await expect(send(mail)).rejects.toMatchObject({ responseCode: 451 });
    expect(outcomes.at(-1)).toBe("deferred");
    expect(await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since)).toEqual([]);
    // As the sender's next try: the key is found, the message proves its domain.
    await send(mail);
    const read = await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since);
    expect(read.map((m) => [m.text.trim(), m.authenticated])).toEqual([
      ["Code: 5555", { dkim: ["acme.test"], arc: [] }],
    ]);
  });

  it("finds an address's forwarded mail behind however many messages of other addresses came first", async () => {
    const { org, mailbox } = await newMailbox("busy");
    const since = await db.inboundMessages.now();
    const content = (text: string) => ({ from: "no-reply@acme.example", subject: "Code", text, html: "" });
    for (let i = 0; i < 450; i++)
      await db.inboundMessages.store(org.id, { mailboxId: mailbox.id }, mailbox.address, content("Code: 0000"), [
        `other${i}@agents.example`,
      ]);
    await db.inboundMessages.store(org.id, { mailboxId: mailbox.id }, mailbox.address, content("Code: 4242"), [
      "late.agent@agents.example",
    ]);
    const mine = await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since, {
      originalRecipient: "late.agent@agents.example",
    });
    expect(mine.map((m) => m.text)).toEqual(["Code: 4242"]);
  });

  it("refuses other domains and unknown mailboxes at RCPT, and stores nothing", async () => {
    const before = await db.prisma.inboundMessage.count();
    await expect(send({ to: "someone@gmail.com", text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    await expect(send({ to: `someone@sub.${DOMAIN}`, text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    await expect(send({ to: `nobody-here@${DOMAIN}`, text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    expect(await db.prisma.inboundMessage.count()).toBe(before);
    expect(outcomes.filter((o) => o === "refused").length).toBeGreaterThanOrEqual(3);
  });

  it("takes the known recipients of a message and refuses the others", async () => {
    const { org, mailbox } = await newMailbox("mixed");
    const since = await db.inboundMessages.now();
    const info = await send({ to: [mailbox.address, `ghost@${DOMAIN}`], text: "Code: 5555" });
    expect(info.accepted).toEqual([mailbox.address]);
    expect(info.rejected).toEqual([`ghost@${DOMAIN}`]);
    expect(await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since)).toHaveLength(1);
  });

  it("refuses a message above the size limit with 552", async () => {
    const { org, mailbox } = await newMailbox("big");
    const since = await db.inboundMessages.now();
    await expect(send({ to: mailbox.address, text: "x".repeat(100 * 1024) })).rejects.toMatchObject({
      responseCode: 552,
    });
    expect(await db.inboundMessages.since(org.id, { mailboxId: mailbox.id }, since)).toHaveLength(0);
  });

  it("deletes a mailbox's messages with it and refuses its mail from then on", async () => {
    const { org, mailbox } = await newMailbox("gone");
    await send({ to: mailbox.address, text: "Code: 9999" });
    expect(await db.mailboxes.remove(org.id, mailbox.id)).toBe(true);
    expect(await db.prisma.inboundMessage.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    await expect(send({ to: mailbox.address, text: "again" })).rejects.toMatchObject({ responseCode: 550 });
  });
});

describe("mailboxAddressOf", () => {
  it("maps recipients onto mailbox addresses of the domain only", () => {
    expect(mailboxAddressOf("Agent+Shop@Mail.Example.com", "mail.example.com")).toBe("agent@mail.example.com");
    expect(mailboxAddressOf("agent@mail.example.com.", "mail.example.com")).toBe("agent@mail.example.com");
    expect(mailboxAddressOf("agent@evil-mail.example.com", "mail.example.com")).toBeNull();
    expect(mailboxAddressOf("agent@example.com", "mail.example.com")).toBeNull();
    expect(mailboxAddressOf("+x@mail.example.com", "mail.example.com")).toBeNull();
    expect(mailboxAddressOf("nobody", "mail.example.com")).toBeNull();
  });
});

describe("originalRecipientsOf", () => {
  const DOMAIN_HERE = "mail.example.com";
  const address = (a: string, name = "") => ({ value: [{ address: a, name }], text: a });
  it("reads the forwarding headers of Gmail, Postfix and resent mail, lower case, +tags kept, our own domain left out", () => {
    const headers = new Map<string, unknown>([
      ["delivered-to", [address("Agent+Shop@Gmail.com")]],
      ["x-forwarded-to", "fwd-abc@mail.example.com"],
      ["x-forwarded-for", "agent+shop@gmail.com fwd-abc@mail.example.com"],
      ["x-original-to", "Team@Corp.Example"],
      ["to", address("Agent <agent+shop@gmail.com>")],
      ["resent-to", "boss@corp.example."],
    ]);
    expect(originalRecipientsOf(headers, DOMAIN_HERE)).toEqual([
      "agent+shop@gmail.com",
      "team@corp.example",
      "boss@corp.example",
    ]);
  });
  it("finds nothing in mail sent to our address directly, and ignores other headers", () => {
    const headers = new Map<string, unknown>([
      ["to", address("fwd-abc@mail.example.com")],
      ["cc", address("other@gmail.com")],
      ["from", address("forwarding-noreply@google.com")],
    ]);
    expect(originalRecipientsOf(headers, DOMAIN_HERE)).toEqual([]);
    expect(
      originalRecipientsOf(
        new Map([["to", { value: [{ name: "list", group: [{ address: "a@b.example" }] }] }]]),
        DOMAIN_HERE,
      ),
    ).toEqual(["a@b.example"]);
  });
});
