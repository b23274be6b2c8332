import { createTransport, type Transporter } from "nodemailer";
import { AsyncLocalStorage } from "node:async_hooks";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { twilioSignature } from "@authsvc/crypto";
import { confirmationMail, forwardedCopy, MailForwarding } from "./mail-forwarding";
import type { SiteDns } from "./site-dns";
import type { Accounts } from "./accounts";

// A real MTA tries a deferred message again for days; the fixture's sender a few times, soon.
const SEND_TRIES = 5;
const RETRY_AFTER_MS = 250;

/** Where the fixture sites deliver their verification messages: mail-in's SMTP port and the SMS webhook. */
export interface OutboxConfig {
  smtp?: { host: string; port: number };
  sms?: { webhookUrl: string; authToken: string };
}

export interface SiteMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** How the text parts travel (as MediaWiki sends them: base64), when not nodemailer's choice. */
  textEncoding?: "base64" | "quoted-printable";
}

/** The sender of this fixture "company"; sites send as it, like a transactional mail provider would. */
export const SITE_SENDER = '"Acme Accounts" <no-reply@acme.localhost>';
/**
 * The host name the fixture sites are also served under (through EGRESS_HOST_MAP): a site visited there
 * sends its mail from that domain, DKIM-signed, as a real site does.
 */
export const SITES_HOST_NAME = "acme.test";

/** The DKIM selector the fixture domains publish their keys under. */
export const DKIM_SELECTOR = "fixture";

/** The number SMS come from (a Twilio test number). */
export const SMS_SENDER = "+15005550006";

/**
 * How the fixture sites send mail and SMS the way real ones do: mail through a real SMTP connection to
 * the service's MX (mail-in), SMS as Twilio's signed webhook call to the gateway.
 */
export class Outbox {
  private transport: Transporter | null = null;
  private sender = SITE_SENDER;
  readonly sent = { mail: 0, sms: 0 };
  /** The callers' own mail host: mail to an address with a rule is forwarded (like Gmail) instead. */
  readonly forwarding = new MailForwarding();
  /** The host name of the page request being answered: a site sends from the domain it is visited under. */
  private readonly requestHost = new AsyncLocalStorage<string>();
  /** Each sending domain's DKIM key, made on its first mail and published in the sites' DNS. */
  private readonly dkimKeys = new Map<string, string>();

  constructor(
    private config: OutboxConfig = {},
    private readonly dns?: SiteDns,
  ) {}

  /** Runs `next` (a request's handlers) as the site visited under `host`: its mail is sent from that domain. */
  asHost(host: string, next: () => void): void {
    this.requestHost.run(host, next);
  }

  /**
   * Whom a site's mail is from right now: `no-reply@` the host name the page was visited under, DKIM-signed
   * for it as real senders sign; an IP address's (`[127.0.0.1]`) is unsigned, as no key can be published for one.
   */
  currentSender(): string {
    const host = this.requestHost.getStore();
    return host ? SITE_SENDER.replace("acme.localhost", isIP(host) ? `[${host}]` : host.toLowerCase()) : this.sender;
  }

  configure(config: OutboxConfig): void {
    this.config = { ...this.config, ...config };
    this.transport = null;
  }

  /** Sends as the host the sites are served from, as real sites send from their own domain. */
  sendAs(host: string): void {
    this.sender = SITE_SENDER.replace("acme.localhost", isIP(host) ? `[${host}]` : host);
  }

  /** Sends a site's mail, from `sender` (the site's current one unless given: mail held back keeps its own). */
  async mail(message: SiteMail, sender = this.currentSender()): Promise<void> {
    await this.sendAsSite(message, sender, senderDomainOf(sender));
    this.sent.mail++;
  }

  /**
   * A forged message: `From:` the site's address, but signed (if at all) for `signedBy`, a domain the forger
   * holds, as anyone can send; forwarded like any other mail to the address.
   */
  async forge(message: SiteMail, from: string, signedBy?: string): Promise<void> {
    await this.sendAsSite(message, from, signedBy);
  }

  private async sendAsSite(message: SiteMail, from: string, signingDomain: string | undefined): Promise<void> {
    const forwardTo = this.forwarding.of(message.to);
    const dkim =
      signingDomain && this.dns && !isIP(signingDomain)
        ? { domainName: signingDomain, keySelector: DKIM_SELECTOR, privateKey: this.dkimKeyOf(signingDomain) }
        : undefined;
    await this.send({
      from,
      ...message,
      ...(dkim ? { dkim } : {}),
      ...(forwardTo ? forwardedCopy(message.to, forwardTo, from.replace(/^.*<|>$/g, "")) : {}),
    });
  }

  private dkimKeyOf(domain: string): string {
    let key = this.dkimKeys.get(domain);
    if (!key) {
      const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
      key = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const publicKey = pair.publicKey.export({ type: "spki", format: "der" }).toString("base64");
      this.dns!.setTxt(`${DKIM_SELECTOR}._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${publicKey}`);
      this.dkimKeys.set(domain, key);
    }
    return key;
  }

  /** Forwards `address`'s mail to `to` from now on, after sending Gmail's confirmation mail there. */
  async forward(address: string, to: string): Promise<{ code: string; link: string }> {
    const { code, link, ...mail } = confirmationMail(address, to);
    await this.send(mail);
    this.forwarding.set(address, to);
    return { code, link };
  }

  /** Sends as a site's MTA does: a temporary refusal (4xx) is tried again a little later, a few times. */
  private async send(mail: Parameters<Transporter["sendMail"]>[0]): Promise<void> {
    const smtp = this.config.smtp;
    if (!smtp) throw new Error("the fixture sites have no SMTP server to send to");
    this.transport ??= createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      pool: false,
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.sendMail(mail);
        return;
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode ?? 0;
        if (code < 400 || code >= 500 || attempt >= SEND_TRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS * attempt));
      }
    }
  }

  async sms(to: string, body: string): Promise<void> {
    const sms = this.config.sms;
    if (!sms) throw new Error("the fixture sites have no SMS webhook to call");
    const params = {
      MessageSid: `SM${randomBytes(16).toString("hex")}`,
      AccountSid: `AC${"0".repeat(32)}`,
      From: SMS_SENDER,
      To: to,
      Body: body,
      NumMedia: "0",
      NumSegments: "1",
    };
    const res = await fetch(sms.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(sms.authToken, sms.webhookUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    if (!res.ok) throw new Error(`the SMS webhook answered ${res.status}: ${await res.text()}`);
    this.sent.sms++;
  }
}

/** The domain of an address (`"Name" <a@b>` or `a@b`); undefined for an address literal (`[127.0.0.1]`). */
function senderDomainOf(from: string): string | undefined {
  const domain = /@([^>\s]+)>?$/.exec(from.trim())?.[1];
  return domain && !domain.startsWith("[") ? domain : undefined;
}

/** Sends a site's mail unless the address never gets any; like a real site, a failed send does not fail the page. */
export async function sendMail(accounts: Accounts, outbox: Outbox, mail: SiteMail): Promise<void> {
  const delivery = accounts.deliveryFor(mail.to);
  if (delivery === "lost") return;
  if (delivery === "late") {
    // Sent later as the site sends it now (its domain is the page's, read while the page is answered).
    const sender = outbox.currentSender();
    accounts.hold(mail.to, mail, () => outbox.mail(mail, sender).then(() => undefined));
    return;
  }
  await outbox.mail(mail).catch(() => undefined);
}
