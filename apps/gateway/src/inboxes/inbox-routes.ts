import { randomBytes } from "node:crypto";
import { Router, type Request } from "express";
import {
  compileValidator,
  mailboxRequestSchema,
  phoneNumberRequestSchema,
  type MailboxRequest,
  type MailboxResource,
  type PhoneNumberRequest,
  type PhoneNumberResource,
} from "@authsvc/contracts";
import { AddressTakenError, type Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";

const validateMailbox = compileValidator<MailboxRequest>(mailboxRequestSchema);
const validatePhone = compileValidator<PhoneNumberRequest>(phoneNumberRequestSchema);
const MAILBOX_ID = /^mbx_[0-9A-Za-z]{22}$/;
const PHONE_ID = /^pn_[0-9A-Za-z]{22}$/;

/** `agent-` and 12 random base-36 characters: about 62 bits, unguessable by a site that saw another address. */
function randomLocalPart(): string {
  const n = randomBytes(8).readBigUInt64BE();
  return `agent-${n.toString(36).padStart(13, "0").slice(-12)}`;
}

const mailboxResource = (m: { id: string; address: string; label: string | null; createdAt: Date }): MailboxResource => ({
  id: m.id,
  address: m.address,
  label: m.label,
  createdAt: m.createdAt.toISOString(),
});
const phoneResource = (p: { id: string; number: string; label: string | null; createdAt: Date }): PhoneNumberResource => ({
  id: p.id,
  number: p.number,
  label: p.label,
  createdAt: p.createdAt.toISOString(),
});

const orgOf = (req: Request) => req.res!.locals.orgId as string;

/**
 * The organization's own inboxes. Mailboxes get an address on the service's mail domain; mail-in stores
 * what arrives for them. Phone numbers are numbers the operator routed to our SMS webhook (Twilio).
 */
export function inboxRoutes(db: Database, mailDomain: string): Router {
  const r = Router();

  r.post("/mailboxes", async (req, res) => {
    const checked = validateMailbox(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const { localPart, label } = checked.value;
    const orgId = orgOf(req);
    // A random address is retried on the (unlikely) collision; a chosen one that is taken is the caller's to change.
    for (let attempt = 0; ; attempt++) {
      const address = `${(localPart ?? randomLocalPart()).toLowerCase()}@${mailDomain}`;
      try {
        const mailbox = await db.mailboxes.create(orgId, address, label);
        res.status(201).location(`${req.baseUrl}/mailboxes/${mailbox.id}`).json(mailboxResource(mailbox));
        return;
      } catch (err) {
        if (!(err instanceof AddressTakenError)) throw err;
        if (localPart || attempt >= 2) throw new ApiError("conflict", `The address ${address} is already taken.`);
      }
    }
  });

  r.get("/mailboxes", async (req, res) => {
    res.json({ mailboxes: (await db.mailboxes.list(orgOf(req))).map(mailboxResource) });
  });

  r.get("/mailboxes/:id", async (req, res) => {
    const found = MAILBOX_ID.test(req.params.id) ? (await db.mailboxes.list(orgOf(req))).find((m) => m.id === req.params.id) : undefined;
    if (!found) throw new ApiError("not_found", "No such mailbox.");
    res.json(mailboxResource(found));
  });

  r.delete("/mailboxes/:id", async (req, res) => {
    if (!MAILBOX_ID.test(req.params.id) || !(await db.mailboxes.remove(orgOf(req), req.params.id))) {
      throw new ApiError("not_found", "No such mailbox.");
    }
    res.status(204).end();
  });

  r.post("/phone-numbers", async (req, res) => {
    const checked = validatePhone(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    try {
      const phone = await db.phoneNumbers.create(orgOf(req), checked.value.number, checked.value.label);
      res.status(201).location(`${req.baseUrl}/phone-numbers/${phone.id}`).json(phoneResource(phone));
    } catch (err) {
      if (!(err instanceof AddressTakenError)) throw err;
      throw new ApiError("conflict", `The number ${checked.value.number} is already registered.`);
    }
  });

  r.get("/phone-numbers", async (req, res) => {
    res.json({ phoneNumbers: (await db.phoneNumbers.list(orgOf(req))).map(phoneResource) });
  });

  r.delete("/phone-numbers/:id", async (req, res) => {
    if (!PHONE_ID.test(req.params.id) || !(await db.phoneNumbers.remove(orgOf(req), req.params.id))) {
      throw new ApiError("not_found", "No such phone number.");
    }
    res.status(204).end();
  });

  return r;
}
