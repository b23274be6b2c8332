import { generateKeyPairSync } from "node:crypto";
import { createSocket } from "node:dgram";
import { dkimSign, sealMessage } from "mailauth";
import { SiteDns } from "@authsvc/test-sites";
import { authenticateMail, MailAuthDeferred, mailDnsResolver } from "./authenticate-mail";

let dns: SiteDns;
const keys = new Map<string, string>();
const TRUSTED = ["google.com", "microsoft.com"];

/** A domain's key, published in the test DNS under `sel._domainkey.<domain>`. */
function keyOf(domain: string): string {
  let key = keys.get(domain);
  if (!key) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    key = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    dns.setTxt(
      `sel._domainkey.${domain}`,
      `v=DKIM1; k=rsa; p=${pair.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`,
    );
    keys.set(domain, key);
  }
  return key;
}

const message = (from: string, body = "Your Acme sign-in code is 482913.") =>
  Buffer.from(
    [
      `From: Acme <${from}>`,
      "To: agent@agents.example",
      "Subject: Your sign-in code",
      "Date: Fri, 27 Nov 2026 06:00:00 +0000",
      "Message-ID: <1@acme.test>",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      body,
      "",
    ].join("\r\n"),
  );

// Signed with a time given: without one, mailauth formats the signature's t= twice (Math.round(Date.now() / 1000)
// when it signs, and again when it writes the header), and a signature made across a half second on a busy
// machine carries another t= than the one it signed: a bad signature (about 1 in 100 beside a CPU hog).
async function signed(raw: Buffer, domain: string): Promise<Buffer> {
  const { signatures, errors } = await dkimSign(raw, {
    signTime: new Date(),
    signatureData: [{ signingDomain: domain, selector: "sel", privateKey: keyOf(domain) }],
  } as never);
  expect(errors).toEqual([]);
  return Buffer.concat([Buffer.from(signatures), raw]);
}

/** As a forwarder seals what it forwards: its own ARC headers, saying what it found when the mail reached it. */
async function sealed(raw: Buffer, sealer: string, authResults: string): Promise<Buffer> {
  const headers = await sealMessage(raw, {
    signingDomain: sealer,
    selector: "sel",
    privateKey: keyOf(sealer),
    authResults: `mx.${sealer}; ${authResults}`,
    cv: "none",
    signTime: new Date(),
  } as never);
  return Buffer.concat([headers, raw]);
}

/** A forwarder that changes the body on the way (a footer), which breaks the sender's DKIM body hash. */
const withFooter = (raw: Buffer) => Buffer.concat([raw, Buffer.from("--\r\nForwarded by your mail host\r\n")]);

beforeAll(async () => {
  dns = await SiteDns.start();
});
afterAll(() => dns.close());

const check = (raw: Buffer) => authenticateMail(raw, mailDnsResolver({ dnsServers: [dns.server] }), TRUSTED);

describe("authenticateMail", () => {
  it("names the domain whose DKIM signature verifies; an unsigned or forger-signed From: names nothing of the site's", async () => {
    expect(await check(await signed(message("no-reply@acme.test"), "acme.test"))).toEqual({
      dkim: ["acme.test"],
      arc: [],
    });
    expect(await check(message("no-reply@acme.test"))).toEqual({ dkim: [], arc: [] });
    expect(await check(await signed(message("no-reply@acme.test"), "forger.test"))).toEqual({
      dkim: ["forger.test"],
      arc: [],
    });
  });

  it("names nothing when the signed message was changed, or its key is not published", async () => {
    expect(await check(withFooter(await signed(message("no-reply@acme.test"), "acme.test")))).toEqual({
      dkim: [],
      arc: [],
    });
    const raw = await signed(message("no-reply@acme.test"), "acme.test");
    dns.setTxt("sel._domainkey.acme.test", "v=DKIM1; k=rsa; p=");
    try {
      expect(await check(raw)).toEqual({ dkim: [], arc: [] });
    } finally {
      keys.delete("acme.test");
    }
  });

  it("believes a trusted forwarder's ARC seal about the DKIM it saw, even when it changed the body; no one else's", async () => {
    const original = await signed(message("no-reply@shop.test"), "shop.test");
    const saw = "dkim=pass header.i=@shop.test header.s=sel header.b=abcdefgh; spf=pass smtp.mailfrom=shop.test";
    expect(await check(await sealed(withFooter(original), "google.com", saw))).toEqual({
      dkim: [],
      arc: ["shop.test"],
    });
    // A seal by a forwarder nobody configured to trust vouches for nothing.
    expect(await check(await sealed(withFooter(original), "forwarder.test", saw))).toEqual({ dkim: [], arc: [] });
    // A trusted forwarder that saw DKIM fail vouches for nothing.
    expect(
      await check(await sealed(withFooter(original), "google.com", "dkim=fail header.i=@shop.test header.s=sel")),
    ).toEqual({ dkim: [], arc: [] });
    // A sealed message changed after the seal breaks the chain.
    expect(await check(withFooter(await sealed(original, "google.com", saw)))).toEqual({ dkim: [], arc: [] });
  });

  it("defers a signed message when DNS does not answer (the sender tries again), and proves nothing of an unsigned one", async () => {
    const raw = await signed(message("no-reply@acme.test"), "acme.test");
    // A DNS server that takes every query and answers none. (A port left free after a close would do, until
    // another process's DNS server took it: the fixture sites each run one on an ephemeral port.)
    const silent = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    try {
      const resolver = mailDnsResolver({ dnsServers: [`127.0.0.1:${silent.address().port}`], dnsTimeoutMs: 200 });
      await expect(authenticateMail(raw, resolver, TRUSTED)).rejects.toThrow(MailAuthDeferred);
      await expect(authenticateMail(raw, resolver, TRUSTED)).rejects.toThrow(/acme\.test/);
      expect(await authenticateMail(message("no-reply@acme.test"), resolver, TRUSTED)).toEqual({ dkim: [], arc: [] });
    } finally {
      silent.close();
    }
  });
});
