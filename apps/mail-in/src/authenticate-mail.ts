import { Resolver } from "node:dns/promises";
import { arc, dkimVerify, type DNSResolver } from "mailauth";

export interface MailAuthOptions {
  /** DNS servers (`address` or `address:port`) for the key lookups; [] uses the system's resolvers. */
  dnsServers: readonly string[];
  /** Forwarders whose ARC seal is believed about the DKIM results they saw (`google.com`, `microsoft.com`). */
  trustedArcSealers: readonly string[];
  /** How long one DNS lookup may take. */
  dnsTimeoutMs?: number;
}

/** How a message proved where it came from: each domain once, lower case, with how it was proved. */
export interface MailAuthentication {
  /** Domains whose DKIM signature on this message verifies (`d=`), as it reached us. */
  dkim: string[];
  /**
   * Domains a trusted forwarder's ARC seal vouches for: its ARC-Authentication-Results saw their DKIM
   * signature pass before it forwarded (and perhaps changed) the message, and the seal chain verifies.
   */
  arc: string[];
}

/** A DNS resolver for mailauth (TXT lookups of DKIM and ARC keys) on the given servers. */
export function mailDnsResolver(options: Pick<MailAuthOptions, "dnsServers" | "dnsTimeoutMs">): DNSResolver {
  const resolver = new Resolver({ timeout: options.dnsTimeoutMs ?? 5000, tries: 2 });
  if (options.dnsServers.length) resolver.setServers([...options.dnsServers]);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/**
 * A signature's key could not be looked up for a reason that may pass (a DNS timeout, a server failure:
 * DKIM's `temperror`): the message is neither proved nor disproved, and the sender is asked to try again
 * later (SMTP 451), as RFC 6376 lets a verifier do, rather than keeping a site's code as unauthenticated
 * (where it is never used).
 */
export class MailAuthDeferred extends Error {}

const lower = (d: unknown) => (typeof d === "string" ? d.trim().toLowerCase().replace(/\.$/, "") : "");

/**
 * Which domains a message is authenticated for, by DKIM as it reached us and by the ARC seal of a trusted
 * forwarder. A forged `From:` proves nothing by itself; a broken signature, or a key the domain does not
 * publish, proves nothing either (the domain is left out, never guessed in). A key whose lookup failed for
 * now throws MailAuthDeferred, unless another signature of that domain passed.
 */
export async function authenticateMail(
  raw: Buffer,
  resolver: DNSResolver,
  trustedArcSealers: readonly string[],
): Promise<MailAuthentication> {
  const dkimResult = await dkimVerify(raw, { resolver });
  const dkim = new Set(
    dkimResult.results
      .filter((r) => r.status.result === "pass")
      .map((r) => lower(r.signingDomain))
      .filter(Boolean),
  );
  const unknown = dkimResult.results.filter(
    (r) => r.status.result === "temperror" && !dkim.has(lower(r.signingDomain)),
  );
  if (unknown.length)
    throw new MailAuthDeferred(
      `the DKIM key of ${unknown.map((r) => lower(r.signingDomain)).join(", ")} could not be looked up (${unknown[0]!.status.comment ?? "DNS failure"})`,
    );
  const vouched = new Set<string>();
  const chain = dkimResult.arc as { lastEntry?: Record<string, { parsed?: { d?: { value?: string } } }> } | undefined;
  const sealer = lower(chain?.lastEntry?.["arc-seal"]?.parsed?.d?.value);
  const trusted = new Set(trustedArcSealers.map(lower));
  if (sealer && trusted.has(sealer) && chain) {
    const result = await arc(dkimResult.arc as Parameters<typeof arc>[0], { resolver });
    const seen =
      result.status.result === "pass"
        ? (result.authenticationResults?.dkim as
            Array<{ result?: string; header?: { d?: string; i?: string } }> | undefined)
        : undefined;
    for (const entry of seen ?? []) {
      if (entry.result !== "pass") continue;
      const domain = lower(entry.header?.d) || lower(entry.header?.i?.replace(/^.*@/, ""));
      if (domain) vouched.add(domain);
    }
  }
  return { dkim: [...dkim], arc: [...vouched].filter((d) => !dkim.has(d)) };
}
