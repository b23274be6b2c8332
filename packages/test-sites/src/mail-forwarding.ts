import { randomBytes, randomInt } from "node:crypto";

/**
 * The mail host of a caller's own addresses (a Gmail or Workspace account), as far as the service sees it:
 * mail for an address with a forwarding rule is forwarded as Gmail does it.
 */
export class MailForwarding {
  private readonly rules = new Map<string, string>();

  /** From now on, mail to `address` goes to `to` (Gmail asks to confirm first; see `confirmationMail`). */
  set(address: string, to: string): void {
    this.rules.set(address.toLowerCase(), to);
  }

  /** Where mail to `address` is forwarded, if anywhere. */
  of(address: string): string | undefined {
    return this.rules.get(address.toLowerCase());
  }
}

/**
 * A forwarded copy as Gmail sends it: the envelope goes to the forwarding address; `To` stays the original,
 * and `Delivered-To`, `X-Forwarded-To` and `X-Forwarded-For` are added.
 */
export function forwardedCopy(original: string, to: string, sender: string) {
  return {
    envelope: { from: sender, to: [to] },
    headers: { "Delivered-To": original, "X-Forwarded-To": to, "X-Forwarded-For": `${original} ${to}` },
  };
}

/** Gmail's "Forwarding Confirmation" mail, sent to the new forwarding address: a 9-digit code and a link. */
export function confirmationMail(address: string, to: string) {
  const code = String(randomInt(100_000_000, 1_000_000_000));
  const link = `https://mail-settings.google.com/mail/vf-%5B${randomBytes(18).toString("base64url")}%5D-${randomBytes(12).toString("base64url")}`;
  return {
    from: '"Gmail Team" <forwarding-noreply@google.com>',
    to,
    subject: `(#${code}) Gmail Forwarding Confirmation - Receive Mail from ${address}`,
    text: `${address} has requested to automatically forward mail to your email address ${to}.
Confirmation code: ${code}

To allow ${address} to automatically forward mail to your address, please click the link below to confirm the request:

${link}

If you click the link and it appears to be broken, please copy and paste it into a new browser window.

Thanks for using Gmail!

Sincerely,

The Gmail Team

If you do not approve this request, no further action is required. ${address} cannot automatically forward messages to your email address unless you confirm the request by clicking the link above.`,
    html: "",
    code,
    link,
  };
}
