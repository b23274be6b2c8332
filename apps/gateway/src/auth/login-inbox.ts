import type { EmailInboxRef, InboxRef } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";
import type { LoginCommand } from "./parse-login-request";

type InboxDb = Pick<Database, "mailboxes" | "phoneNumbers">;

/**
 * Our inbox for the site's code or link. The inbox methods need one of the org's mailboxes or phone
 * numbers, or the caller's own address forwarded to the org's forwarding inbox (400 otherwise); a password
 * login takes one when it has one, so a site that asks for an emailed code after the password gets it answered.
 * `mailDomain`: our mail domain (config.mail.domain).
 */
export async function inboxFor(
  db: InboxDb,
  mailDomain: string,
  orgId: string,
  cmd: LoginCommand,
): Promise<InboxRef | undefined> {
  if (cmd.method === "otp_sms" || (cmd.phone && cmd.method !== "otp_email" && cmd.method !== "magic_link")) {
    const phone = await db.phoneNumbers.findForOrg(orgId, cmd.phone!);
    if (phone) return { kind: "sms", phoneNumberId: phone.id, number: phone.number };
    if (cmd.method === "otp_sms") {
      throw ApiError.invalid([
        { field: "/cred/phone", message: "is not one of this organization's phone numbers (POST /v1/phone-numbers)" },
      ]);
    }
  }
  if (cmd.email) {
    const inbox = await emailInbox(db, mailDomain, orgId, cmd.email);
    if (inbox) return inbox;
    if (cmd.method === "otp_email" || cmd.method === "magic_link") {
      throw ApiError.invalid([
        {
          field: "/cred/email",
          message: `is neither one of this organization's mailboxes on ${mailDomain} (POST /v1/mailboxes) nor forwarded to the service: set up forwarding from it to your forwarding inbox (GET /v1/mailboxes/forwarding)`,
        },
      ]);
    }
  }
  return undefined;
}

/**
 * Where mail to `email` is read: the org's mailbox of that address, or, for the caller's own address on
 * another domain, the org's forwarding inbox (only mail first sent to that address is read there). Null
 * when the org has no forwarding inbox; 400 for an address of our domain that is not this org's.
 */
export async function emailInbox(
  db: Pick<Database, "mailboxes">,
  mailDomain: string,
  orgId: string,
  email: string,
): Promise<EmailInboxRef | null> {
  const address = email.toLowerCase();
  if (address.endsWith(`@${mailDomain}`)) {
    const mailbox = await db.mailboxes.findForOrg(orgId, address);
    // An address of our domain that is not this org's: its mail would reach someone else, or no one.
    if (!mailbox || mailbox.forwarding)
      throw ApiError.invalid([
        {
          field: "/cred/email",
          message: `is not one of this organization's mailboxes on ${mailDomain} (POST /v1/mailboxes)`,
        },
      ]);
    return { kind: "email", mailboxId: mailbox.id, address };
  }
  const forwarding = await db.mailboxes.forwardingOf(orgId);
  return forwarding ? { kind: "email", mailboxId: forwarding.id, address, forwarded: true } : null;
}
