import { createTransport, type Transporter } from "nodemailer";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { twilioSignature } from "@authsvc/crypto";
import { confirmationMail, forwardedCopy, MailForwarding } from "./mail-forwarding";

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

  constructor(private config: OutboxConfig = {}) {}

  configure(config: OutboxConfig): void {
    this.config = { ...this.config, ...config };
    this.transport = null;
  }

  /** Sends as the host the sites are served from, as real sites send from their own domain. */
  sendAs(host: string): void {
    this.sender = SITE_SENDER.replace("acme.localhost", isIP(host) ? `[${host}]` : host);
  }

  async mail(message: SiteMail): Promise<void> {
    const forwardTo = this.forwarding.of(message.to);
    await this.send({ from: this.sender, ...message, ...(forwardTo ? forwardedCopy(message.to, forwardTo, this.sender.replace(/^.*<|>$/g, "")) : {}) });
    this.sent.mail++;
  }

  /** Forwards `address`'s mail to `to` from now on, after sending Gmail's confirmation mail there. */
  async forward(address: string, to: string): Promise<{ code: string; link: string }> {
    const { code, link, ...mail } = confirmationMail(address, to);
    await this.send(mail);
    this.forwarding.set(address, to);
    return { code, link };
  }

  private async send(mail: Parameters<Transporter["sendMail"]>[0]): Promise<void> {
    const smtp = this.config.smtp;
    if (!smtp) throw new Error("the fixture sites have no SMTP server to send to");
    this.transport ??= createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true, pool: false });
    await this.transport.sendMail(mail);
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
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(sms.authToken, sms.webhookUrl, params) },
      body: new URLSearchParams(params).toString(),
    });
    if (!res.ok) throw new Error(`the SMS webhook answered ${res.status}: ${await res.text()}`);
    this.sent.sms++;
  }
}
