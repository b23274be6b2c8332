import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";

/** What a received email or SMS said; stored encrypted as one bundle. */
export interface InboundContent {
  /** Sender address (email) or number (SMS). */
  from: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The domains the message proved it came from (DKIM as it reached us; a trusted forwarder's ARC seal),
   * checked for mail of a forwarding inbox; null or absent where it was not checked.
   */
  authenticated?: { dkim: string[]; arc: string[] } | null;
}

export interface InboundMessage extends InboundContent {
  id: string;
  receivedAt: Date;
}

/** A stored message as `GET /v1/mailboxes/{id}/messages` lists it: where it went, and its decrypted content. */
export interface ListedMessage extends InboundMessage {
  recipient: string;
  originalRecipients: string[];
}

/** Which inbox a message belongs to: one of an organization's mailboxes or phone numbers. */
export type InboxRef = { mailboxId: string } | { phoneNumberId: string };

export class AddressTakenError extends Error {
  constructor(what: string) {
    super(`${what} is already taken`);
    this.name = "AddressTakenError";
  }
}

const publicFields = { id: true, address: true, label: true, forwarding: true, createdAt: true } as const;

/** Lower case, without a `+tag` subaddress: the address a mailbox is stored under. */
export function baseAddress(address: string): string {
  const lower = address.toLowerCase();
  const at = lower.lastIndexOf("@");
  return at < 0 ? lower : `${lower.slice(0, at).split("+")[0]}${lower.slice(at)}`;
}
/** `wanted` received mail sent to `to`: the same base address, and the same +tag when `wanted` has one. */
function sameMailbox(to: string, wanted: string): boolean {
  const a = to.toLowerCase();
  const b = wanted.toLowerCase();
  return b.split("@")[0]!.includes("+") ? a === b : baseAddress(a) === b;
}
const phoneFields = { id: true, number: true, label: true, createdAt: true } as const;

/** Addresses on the service's mailbox domain, each owned by one organization. */
export class Mailboxes {
  constructor(private readonly prisma: Prisma) {}

  /** `forwarding`: the org's forwarding inbox; a second live one is refused like a taken address. */
  async create(orgId: string, address: string, label?: string, forwarding = false) {
    try {
      return await this.prisma.mailbox.create({
        data: { id: newId("mbx"), orgId, address: address.toLowerCase(), label, forwarding },
        select: publicFields,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AddressTakenError(address);
      throw err;
    }
  }

  list(orgId: string) {
    return this.prisma.mailbox.findMany({
      where: { orgId, deletedAt: null },
      orderBy: { createdAt: "asc" },
      select: publicFields,
    });
  }

  find(orgId: string, id: string) {
    return this.prisma.mailbox.findFirst({ where: { id, orgId, deletedAt: null }, select: publicFields });
  }

  /**
   * Deletes the mailbox's messages and leaves a tombstone: mail to the address is refused from now on, and
   * nobody can create it again. False when this org has no such mailbox.
   */
  async remove(orgId: string, id: string): Promise<boolean> {
    const [gone] = await this.prisma.$transaction([
      this.prisma.mailbox.updateMany({ where: { id, orgId, deletedAt: null }, data: { deletedAt: new Date() } }),
      this.prisma.inboundMessage.deleteMany({ where: { mailboxId: id, orgId } }),
    ]);
    return gone.count > 0;
  }

  /** The org's live forwarding inbox, or null when it set none up. */
  forwardingOf(orgId: string) {
    return this.prisma.mailbox.findFirst({ where: { orgId, forwarding: true, deletedAt: null }, select: publicFields });
  }

  /** One of the org's live mailboxes by address; `agent+tag@` is `agent@`. */
  findForOrg(orgId: string, address: string) {
    return this.prisma.mailbox.findFirst({
      where: { orgId, address: baseAddress(address), deletedAt: null },
      select: { ...publicFields, orgId: true },
    });
  }

  /**
   * The owner of a live mailbox address, for mail-in, which learns the organization from the recipient:
   * the one lookup that does not start from an orgId.
   */
  findByAddress(address: string) {
    return this.prisma.mailbox.findFirst({
      where: { address: baseAddress(address), deletedAt: null },
      select: { ...publicFields, orgId: true },
    });
  }
}

/**
 * Phone numbers (E.164) whose SMS reach us through the provider's webhook, each assigned to one
 * organization by the operator: a number is provisioned at the provider by us, not claimed by a tenant.
 */
export class PhoneNumbers {
  constructor(private readonly prisma: Prisma) {}

  async create(orgId: string, number: string, label?: string) {
    try {
      return await this.prisma.phoneNumber.create({
        data: { id: newId("pn"), orgId, number, label },
        select: phoneFields,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AddressTakenError(number);
      throw err;
    }
  }

  list(orgId: string) {
    return this.prisma.phoneNumber.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: phoneFields });
  }

  /** Unassigns a number (operator), with the messages it received; false when it was not assigned. */
  async remove(number: string): Promise<boolean> {
    return (await this.prisma.phoneNumber.deleteMany({ where: { number } })).count > 0;
  }

  findForOrg(orgId: string, number: string) {
    return this.prisma.phoneNumber.findFirst({ where: { orgId, number }, select: { ...phoneFields, orgId: true } });
  }

  /** The owner of a number, for the SMS webhook (like Mailboxes.findByAddress). */
  findByNumber(number: string) {
    return this.prisma.phoneNumber.findUnique({ where: { number }, select: { ...phoneFields, orgId: true } });
  }
}

/** Received verification messages. Bodies are encrypted with AAD = org + row id. */
export class InboundMessages {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /**
   * Stores a message sent to `recipient` (lower-cased: an address with its +tag, or a number);
   * `originalRecipients`: whom a forwarded message was first sent to.
   */
  async store(
    orgId: string,
    inbox: InboxRef,
    recipient: string,
    content: InboundContent,
    originalRecipients: readonly string[] = [],
  ): Promise<{ id: string; receivedAt: Date }> {
    const id = newId("msg");
    const body = this.envelope.encryptJson(content, rowAad(orgId, id));
    const size = content.text.length + content.html.length + content.subject.length;
    return this.prisma.inboundMessage.create({
      data: {
        id,
        orgId,
        ...inbox,
        recipient: recipient.toLowerCase(),
        originalRecipients: originalRecipients.map((a) => a.toLowerCase()),
        body,
        size,
      },
      select: { id: true, receivedAt: true },
    });
  }

  /**
   * Messages of one inbox that arrived at or after `since`, oldest first, decrypted; `except` ids left out.
   * With `recipient`, only those sent to exactly that address (a +tag keeps one site's mail from another's).
   * With `originalRecipient` (forwarded mail), only those first sent to that address: `agent@` matches
   * `agent+x@` too, a tagged `agent+x@` only itself.
   */
  async since(
    orgId: string,
    inbox: InboxRef,
    since: Date,
    options: { except?: readonly string[]; recipient?: string; originalRecipient?: string; limit?: number } = {},
  ): Promise<InboundMessage[]> {
    const { except = [], recipient, originalRecipient, limit = 50 } = options;
    const where = {
      orgId,
      ...inbox,
      receivedAt: { gte: since },
      ...(except.length ? { id: { notIn: [...except] } } : {}),
      ...(recipient ? { recipient: recipient.toLowerCase() } : {}),
    };
    const select = { id: true, body: true, receivedAt: true, originalRecipients: true } as const;
    const decrypt = (row: { id: string; body: string; receivedAt: Date }): InboundMessage => ({
      id: row.id,
      receivedAt: row.receivedAt,
      ...this.envelope.decryptJson<InboundContent>(row.body, rowAad(orgId, row.id)),
    });
    if (!originalRecipient) {
      const rows = await this.prisma.inboundMessage.findMany({
        where,
        orderBy: { receivedAt: "asc" },
        take: limit,
        select,
      });
      return rows.map(decrypt);
    }
    // A forwarding inbox holds every forwarded address's mail: page through it (oldest first) until
    // `limit` of that address's are found, however much of the others' came in between.
    const found: InboundMessage[] = [];
    const batch = Math.max(limit * 4, 200);
    for (let skip = 0; found.length < limit; skip += batch) {
      const rows = await this.prisma.inboundMessage.findMany({
        where,
        orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
        skip,
        take: batch,
        select,
      });
      for (const row of rows) {
        if (found.length < limit && row.originalRecipients.some((to) => sameMailbox(to, originalRecipient)))
          found.push(decrypt(row));
      }
      if (rows.length < batch) break;
    }
    return found;
  }

  /** One mailbox's messages, newest first, `limit` from `offset`, decrypted (the caller decides what to show). */
  async page(orgId: string, mailboxId: string, offset: number, limit: number): Promise<ListedMessage[]> {
    const rows = await this.prisma.inboundMessage.findMany({
      where: { orgId, mailboxId },
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      skip: offset,
      take: limit,
      select: { id: true, body: true, receivedAt: true, recipient: true, originalRecipients: true },
    });
    return rows.map((row) => ({
      id: row.id,
      receivedAt: row.receivedAt,
      recipient: row.recipient,
      originalRecipients: row.originalRecipients,
      ...this.envelope.decryptJson<InboundContent>(row.body, rowAad(orgId, row.id)),
    }));
  }

  /** The database's clock: the mark a flow takes before asking a site for a message (mail-in stamps with it too). */
  async now(): Promise<Date> {
    const [row] = await this.prisma.$queryRaw<{ now: Date }[]>`SELECT CURRENT_TIMESTAMP AS now`;
    return row!.now;
  }

  async deleteReceivedBefore(before: Date): Promise<number> {
    return (await this.prisma.inboundMessage.deleteMany({ where: { receivedAt: { lt: before } } })).count;
  }
}
