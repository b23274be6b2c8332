import type { RememberedDevice } from "@authsvc/contracts";
import { rowAad, type Envelope } from "@authsvc/crypto";
import { DbNull, type Prisma } from "../prisma-client";

/**
 * What a credential's site sees of its browser, kept on the credential: the cookies that remember it as a
 * trusted device, and the browser profile (system, languages, time zone, screen) every run shows.
 */
export class CredentialBrowsers {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /**
   * The cookies the site set to remember this credential's browser (a trusted device), decrypted; [] when none
   * are kept. Under their own associated data: a row's secret never decrypts as its device, nor the other way.
   */
  async device(orgId: string, id: string): Promise<RememberedDevice | null> {
    const row = await this.prisma.credential.findFirst({ where: { id, orgId }, select: { device: true } });
    return row?.device ? this.envelope.decryptJson<RememberedDevice>(row.device, deviceAad(orgId, id)) : null;
  }

  /** Keeps the site's memory of the credential's browser for its next login (null forgets it). */
  async saveDevice(orgId: string, id: string, device: RememberedDevice | null): Promise<void> {
    await this.prisma.credential.updateMany({
      where: { id, orgId },
      data: device
        ? {
            device: this.envelope.encryptJson(device, deviceAad(orgId, id)),
            deviceSavedAt: device.cookies.length > 0 ? new Date() : null,
          }
        : { device: null, deviceSavedAt: null },
    });
  }

  /**
   * The browser this credential's runs show its site, chosen once by `choose` (given the profiles the
   * organization's other credentials show) and kept: every later run is the same browser. `known`: the one
   * the job already read with its credential, if any.
   */
  async browserProfile<P extends object>(
    orgId: string,
    id: string,
    choose: (taken: P[]) => P,
    known?: unknown,
  ): Promise<P> {
    // What the job read with its credential; else read here.
    if (known) return known as P;
    const row = await this.prisma.credential.findFirst({ where: { id, orgId }, select: { browserProfile: true } });
    if (row?.browserProfile) return row.browserProfile as P;
    const others = await this.prisma.credential.findMany({
      where: { orgId, browserProfile: { not: DbNull } },
      select: { browserProfile: true },
      take: 1000,
    });
    const chosen = choose(others.map((o) => o.browserProfile as P));
    // Two runs choosing at once keep the first one stored.
    await this.prisma.credential.updateMany({
      where: { id, orgId, browserProfile: { equals: DbNull } },
      data: { browserProfile: { ...chosen } },
    });
    const stored = await this.prisma.credential.findFirst({ where: { id, orgId }, select: { browserProfile: true } });
    return (stored?.browserProfile as P | null) ?? chosen;
  }

  /** Replaces the credential's browser (its person moved to another region). */
  async saveBrowserProfile(orgId: string, id: string, profile: object): Promise<void> {
    await this.prisma.credential.updateMany({ where: { id, orgId }, data: { browserProfile: { ...profile } } });
  }
}

const deviceAad = (orgId: string, id: string) => `${rowAad(orgId, id)}/device`;
