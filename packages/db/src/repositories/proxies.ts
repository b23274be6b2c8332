import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { Prisma } from "../prisma-client";

const PUBLIC = { id: true, label: true, region: true, address: true, createdAt: true } as const;

/** An organization's egress proxy as listings show it: never its URL's credentials. */
export interface ProxyRow {
  id: string;
  label: string | null;
  region: string | null;
  /** scheme://host:port */
  address: string;
  createdAt: Date;
}

/** What a run's request asked of proxies: one by id, a pool by label, or nothing (the credential's own). */
export interface ProxyChoice {
  proxy?: string;
  proxyPool?: string;
}

/** The proxy a run leaves through: its id, region and decrypted URL (only the worker asks). */
export interface RunProxy {
  id: string;
  region: string | null;
  url: string;
}

/** Why a run's proxy could not be chosen: the named proxy or pool is gone (deleted since the request). */
export class ProxyGoneError extends Error {}

/**
 * Organizations' egress proxies (the URL, credentials included, encrypted under org + row), and which one
 * each credential's runs leave through: the one it first signed in through, kept until the caller names
 * another (or a pool it is not in) or the proxy is deleted.
 */
export class Proxies {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  async create(
    orgId: string,
    input: { url: string; address: string; label?: string; region?: string },
  ): Promise<ProxyRow> {
    const id = newId("prx");
    return this.prisma.proxy.create({
      data: {
        id,
        orgId,
        label: input.label ?? null,
        region: input.region ?? null,
        address: input.address,
        url: this.envelope.encrypt(input.url, rowAad(orgId, id)),
      },
      select: PUBLIC,
    });
  }

  list(orgId: string): Promise<ProxyRow[]> {
    return this.prisma.proxy.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: PUBLIC });
  }

  find(orgId: string, id: string): Promise<ProxyRow | null> {
    return this.prisma.proxy.findFirst({ where: { id, orgId }, select: PUBLIC });
  }

  /** Whether the org has a pool of that label (one proxy or more). */
  async hasPool(orgId: string, label: string): Promise<boolean> {
    return (await this.prisma.proxy.count({ where: { orgId, label } })) > 0;
  }

  /** Deletes a proxy; credentials that used it lose it (their next run names another, or goes direct). */
  async remove(orgId: string, id: string): Promise<boolean> {
    return (await this.prisma.proxy.deleteMany({ where: { id, orgId } })).count > 0;
  }

  /**
   * The proxy a run of the credential leaves through, recorded on the credential: the one the request names
   * (the credential moves to it); for a pool, the credential's member when it has one there, else the
   * member fewest credentials use; without either, the credential's own, if any (null: direct).
   * `credential.proxyId`: the proxy it keeps, as its job read it. Throws ProxyGoneError when the named proxy
   * or pool no longer exists.
   */
  async forRun(
    orgId: string,
    credential: { id: string; proxyId: string | null },
    choice: ProxyChoice,
  ): Promise<RunProxy | null> {
    let id = credential.proxyId;
    if (choice.proxy) {
      if (!(await this.find(orgId, choice.proxy)))
        throw new ProxyGoneError(`the proxy ${choice.proxy} no longer exists`);
      id = choice.proxy;
    } else if (choice.proxyPool) {
      const members = await this.prisma.proxy.findMany({
        where: { orgId, label: choice.proxyPool },
        select: { id: true, _count: { select: { credentials: true } } },
        orderBy: { createdAt: "asc" },
      });
      if (members.length === 0) throw new ProxyGoneError(`the proxy pool "${choice.proxyPool}" has no proxy any more`);
      if (!members.some((m) => m.id === id))
        id = [...members].sort((a, b) => a._count.credentials - b._count.credentials)[0]!.id;
    }
    if (!id) return null;
    if (id !== credential.proxyId)
      await this.prisma.credential.updateMany({ where: { id: credential.id, orgId }, data: { proxyId: id } });
    const row = await this.prisma.proxy.findFirst({
      where: { id, orgId },
      select: { id: true, region: true, url: true },
    });
    return row
      ? { id: row.id, region: row.region, url: this.envelope.decrypt(row.url, rowAad(orgId, row.id)).toString("utf8") }
      : null;
  }
}
