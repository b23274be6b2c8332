import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { Config } from "@authsvc/config";
import { createPrismaClient, type Prisma } from "./prisma-client";
import { Organizations } from "./repositories/organizations";
import { ApiKeys } from "./repositories/api-keys";
import { Credentials } from "./repositories/credentials";
import { CredentialBrowsers } from "./repositories/credential-browsers";
import { SignupCredentials } from "./repositories/signup-credentials";
import { Sessions } from "./repositories/sessions";
import { AuthJobRows } from "./repositories/auth-job-rows";
import { AuthJobLifecycle } from "./repositories/auth-job-lifecycle";
import { AuthJobHandoff } from "./repositories/auth-job-handoff";
import { LearnedFlows } from "./repositories/learned-flows";
import { InboundMessages, Mailboxes, PhoneNumbers } from "./repositories/inboxes";
import { Webhooks } from "./repositories/webhooks";
import { ProviderSessions } from "./repositories/provider-sessions";
import { JobScreenshots } from "./repositories/job-screenshots";
import { DashboardUsers } from "./repositories/dashboard-users";
import { DashboardSessions } from "./repositories/dashboard-sessions";
import { Invitations } from "./repositories/invitations";
import { JobListings } from "./repositories/job-listings";
import { EntryLinks } from "./repositories/entry-links";
import { Proxies } from "./repositories/proxies";
import { Passkeys } from "./repositories/passkeys";
import { JobStats } from "./repositories/job-stats";
import { JobStatSites } from "./repositories/job-stats-sites";

/** One Prisma client and the repositories built on it. */
export class Database {
  readonly organizations: Organizations;
  readonly apiKeys: ApiKeys;
  readonly credentials: Credentials;
  /** What a credential's site sees of its browser: its remembered device and its browser profile. */
  readonly credentialBrowsers: CredentialBrowsers;
  /** The credentials of accounts signups made: their settled identity, and whether one is unfinished. */
  readonly signupCredentials: SignupCredentials;
  readonly sessions: Sessions;
  /** Auth job records as read; their status changes are `jobLifecycle`'s, a person's questions `jobHandoff`'s. */
  readonly authJobs: AuthJobRows;
  readonly jobLifecycle: AuthJobLifecycle;
  readonly jobHandoff: AuthJobHandoff;
  readonly learnedFlows: LearnedFlows;
  readonly mailboxes: Mailboxes;
  readonly phoneNumbers: PhoneNumbers;
  readonly inboundMessages: InboundMessages;
  readonly webhooks: Webhooks;
  readonly providerSessions: ProviderSessions;
  readonly jobScreenshots: JobScreenshots;
  readonly entryLinks: EntryLinks;
  readonly proxies: Proxies;
  readonly passkeys: Passkeys;
  /** Hourly counts of finished jobs: the dashboard's charts, filled by the worker's maintenance queue. */
  readonly jobStats: JobStats;
  /** Per organization (and for all) the busiest sites and those whose success rate fell, recomputed every few minutes. */
  readonly jobStatSites: JobStatSites;
  // dashboard
  readonly dashboardUsers: DashboardUsers;
  readonly dashboardSessions: DashboardSessions;
  readonly invitations: Invitations;
  readonly jobListings: JobListings;

  constructor(
    readonly prisma: Prisma,
    private readonly envelope: Envelope,
    /** Bound to a transaction (see `transaction`). */
    bound = false,
  ) {
    this.organizations = new Organizations(prisma);
    this.apiKeys = new ApiKeys(prisma);
    this.credentials = new Credentials(prisma, envelope);
    this.credentialBrowsers = new CredentialBrowsers(prisma, envelope);
    this.signupCredentials = new SignupCredentials(prisma, envelope, this.credentials, bound);
    this.sessions = new Sessions(prisma, envelope);
    this.authJobs = new AuthJobRows(prisma);
    this.jobLifecycle = new AuthJobLifecycle(prisma, envelope);
    this.jobHandoff = new AuthJobHandoff(prisma, envelope);
    this.learnedFlows = new LearnedFlows(prisma);
    this.mailboxes = new Mailboxes(prisma);
    this.phoneNumbers = new PhoneNumbers(prisma);
    this.inboundMessages = new InboundMessages(prisma, envelope);
    this.webhooks = new Webhooks(prisma, envelope);
    this.providerSessions = new ProviderSessions(prisma, envelope);
    this.jobScreenshots = new JobScreenshots(prisma, envelope);
    this.entryLinks = new EntryLinks(prisma);
    this.proxies = new Proxies(prisma, envelope);
    this.passkeys = new Passkeys(prisma, envelope);
    this.jobStats = new JobStats(prisma);
    this.jobStatSites = new JobStatSites(prisma);
    // dashboard
    this.dashboardUsers = new DashboardUsers(prisma);
    this.dashboardSessions = new DashboardSessions(prisma);
    this.invitations = new Invitations(prisma);
    this.jobListings = new JobListings(prisma);
  }

  static fromConfig(config: Pick<Config, "databaseUrl" | "crypto">, poolSize?: number): Database {
    const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
    return new Database(createPrismaClient(config.databaseUrl, poolSize), envelope);
  }

  /**
   * Runs `work` in one database transaction, with repositories bound to it: all of its writes land, or
   * none (a fault or a throw part way leaves nothing behind, so the whole can be tried again).
   */
  transaction<T>(work: (db: Database) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => work(new Database(tx as unknown as Prisma, this.envelope, true)), {
      timeout: 15_000,
    });
  }

  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }

  /** The start-up check of a service (waitForDependencies in @authsvc/lifecycle). */
  dependency(): { name: string; check: () => Promise<void> } {
    return { name: "PostgreSQL", check: () => this.ping() };
  }

  close(): Promise<void> {
    return this.prisma.$disconnect();
  }
}
