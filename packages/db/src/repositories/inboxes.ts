import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import { isUniqueViolation, type Prisma } from "../prisma-client";

/** What a received email or SMS said; stored encrypted as one bundle. */
export interface InboundContent {
  /** Sender address (email) or number (SMS). */
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface InboundMessage extends InboundContent {
  id: string;
  receivedAt: Date;
}

/** Which inbox a message belongs to: one of an organization's mailboxes or phone numbers. */
export type InboxRef = { mailboxId: string } | { phoneNumberId: string };

export class AddressTakenError extends Error {
  constructor(what: string) {
    super(`${what} is already taken`);
    this.name = "AddressTakenError";
  }
}

const publicFields = { id: true, address: true, label: true, createdAt: true } as const;
const phoneFields = { id: true, number: true, label: true, createdAt: true } as const;

/** Addresses on the service's mailbox domain, each owned by one organization. */
export class Mailboxes {
  constructor(private readonly prisma: Prisma) {}

  async create(orgId: string, address: string, label?: string) {
    try {
      return await this.prisma.mailbox.create({ data: { id: newId("mbx"), orgId, address: address.toLowerCase(), label }, select: publicFields });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AddressTakenError(address);
      throw err;
    }
  }

  list(orgId: string) {
    return this.prisma.mailbox.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: publicFields });
  }

  /** Deletes the mailbox and every message it received; false when this org has no such mailbox. */
  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.prisma.mailbox.deleteMany({ where: { id, orgId } })).count > 0;
  }

  findForOrg(orgId: string, address: string) {
    return this.prisma.mailbox.findFirst({ where: { orgId, address: address.toLowerCase() }, select: { ...publicFields, orgId: true } });
  }

  /**
   * The owner of an address, for mail-in, which learns the organization from the recipient: the one
   * lookup that does not start from an orgId.
   */
  findByAddress(address: string) {
    return this.prisma.mailbox.findUnique({ where: { address: address.toLowerCase() }, select: { ...publicFields, orgId: true } });
  }
}

/** Phone numbers (E.164) whose SMS reach us through the provider's webhook, each owned by one organization. */
export class PhoneNumbers {
  constructor(private readonly prisma: Prisma) {}

  async create(orgId: string, number: string, label?: string) {
    try {
      return await this.prisma.phoneNumber.create({ data: { id: newId("pn"), orgId, number, label }, select: phoneFields });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AddressTakenError(number);
      throw err;
    }
  }

  list(orgId: string) {
    return this.prisma.phoneNumber.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: phoneFields });
  }

  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.prisma.phoneNumber.deleteMany({ where: { id, orgId } })).count > 0;
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

  async store(orgId: string, inbox: InboxRef, content: InboundContent): Promise<{ id: string; receivedAt: Date }> {
    const id = newId("msg");
    const body = this.envelope.encryptJson(content, rowAad(orgId, id));
    const size = content.text.length + content.html.length + content.subject.length;
    return this.prisma.inboundMessage.create({ data: { id, orgId, ...inbox, body, size }, select: { id: true, receivedAt: true } });
  }

  /** Messages of one inbox that arrived at or after `since`, oldest first, decrypted; `except` ids left out. */
  async since(orgId: string, inbox: InboxRef, since: Date, except: readonly string[] = [], limit = 50): Promise<InboundMessage[]> {
    const rows = await this.prisma.inboundMessage.findMany({
      where: { orgId, ...inbox, receivedAt: { gte: since }, ...(except.length ? { id: { notIn: [...except] } } : {}) },
      orderBy: { receivedAt: "asc" },
      take: limit,
      select: { id: true, body: true, receivedAt: true },
    });
    return rows.map((row) => ({ id: row.id, receivedAt: row.receivedAt, ...this.envelope.decryptJson<InboundContent>(row.body, rowAad(orgId, row.id)) }));
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
