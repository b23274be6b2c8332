import { Router, type Request } from "express";
import {
  compileValidator,
  mailboxRequestSchema,
  type MailboxResource,
  type PhoneNumberResource,
} from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";
import { allocateMailbox, forwardingMailbox } from "./allocate-mailbox";
import { mailboxMessages } from "./mailbox-messages";

const validateMailbox = compileValidator(mailboxRequestSchema);
const MAILBOX_ID = /^mbx_[0-9A-Za-z]{22}$/;
// Addresses mail systems and certificate authorities trust (RFC 2142, CA/B domain validation): whoever got
// one could receive a certificate for the mail domain, or the abuse reports meant for its operator.
const RESERVED_LOCAL_PARTS = new Set([
  "abuse",
  "admin",
  "administrator",
  "hostmaster",
  "info",
  "mailer-daemon",
  "noc",
  "no-reply",
  "noreply",
  "postmaster",
  "root",
  "security",
  "ssladmin",
  "ssl-admin",
  "support",
  "webmaster",
  "www",
]);

const mailboxResource = (m: {
  id: string;
  address: string;
  label: string | null;
  forwarding: boolean;
  createdAt: Date;
}): MailboxResource => ({
  id: m.id,
  address: m.address,
  label: m.label,
  forwarding: m.forwarding,
  createdAt: m.createdAt.toISOString(),
});
const phoneResource = (p: {
  id: string;
  number: string;
  label: string | null;
  createdAt: Date;
}): PhoneNumberResource => ({
  id: p.id,
  number: p.number,
  label: p.label,
  createdAt: p.createdAt.toISOString(),
});

const orgOf = (req: Request) => req.res!.locals.orgId as string;

/**
 * The organization's own inboxes. Mailboxes get an address on the service's mail domain; mail-in stores
 * what arrives for them. Phone numbers are provisioned at Twilio and assigned by the operator
 * (`pnpm cli phone add`); the organization lists them.
 */
export function inboxRoutes(db: Database, mailDomain: string): Router {
  const r = Router();

  r.post("/mailboxes", async (req, res) => {
    const checked = validateMailbox(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const { localPart, label } = checked.value;
    if (localPart && RESERVED_LOCAL_PARTS.has(localPart.toLowerCase())) {
      throw ApiError.invalid([{ field: "/localPart", message: "is reserved for the mail domain's operator" }]);
    }
    const mailbox = await allocateMailbox(db, orgOf(req), mailDomain, { localPart, label });
    res.status(201).location(`${req.baseUrl}/mailboxes/${mailbox.id}`).json(mailboxResource(mailbox));
  });

  r.get("/mailboxes", async (req, res) => {
    res.json({ mailboxes: (await db.mailboxes.list(orgOf(req))).map(mailboxResource) });
  });

  // Before /mailboxes/:id. Created on first call: callers forward their own mailbox (Gmail, Workspace) here.
  r.get("/mailboxes/forwarding", async (req, res) => {
    res.json(mailboxResource(await forwardingMailbox(db, orgOf(req), mailDomain)));
  });

  r.get("/mailboxes/:id/messages", async (req, res) => {
    const found = MAILBOX_ID.test(req.params.id) ? await db.mailboxes.find(orgOf(req), req.params.id) : null;
    if (!found) throw new ApiError("not_found", "No such mailbox.");
    res.set("Cache-Control", "no-store").json(await mailboxMessages(db, orgOf(req), found.id, req.query));
  });

  r.get("/mailboxes/:id", async (req, res) => {
    const found = MAILBOX_ID.test(req.params.id) ? await db.mailboxes.find(orgOf(req), req.params.id) : null;
    if (!found) throw new ApiError("not_found", "No such mailbox.");
    res.json(mailboxResource(found));
  });

  r.delete("/mailboxes/:id", async (req, res) => {
    if (!MAILBOX_ID.test(req.params.id) || !(await db.mailboxes.remove(orgOf(req), req.params.id))) {
      throw new ApiError("not_found", "No such mailbox.");
    }
    res.status(204).end();
  });

  r.get("/phone-numbers", async (req, res) => {
    res.json({ phoneNumbers: (await db.phoneNumbers.list(orgOf(req))).map(phoneResource) });
  });

  return r;
}
