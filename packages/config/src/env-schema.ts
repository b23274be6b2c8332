/** Every environment variable the service reads, with its type and default. Nothing else reads process.env. */
export const envSchema = {
  type: "object",
  required: ["DATABASE_URL", "ENCRYPTION_KEYS", "FINGERPRINT_KEY"],
  properties: {
    NODE_ENV: { type: "string", enum: ["development", "test", "production"], default: "production" },
    LOG_LEVEL: {
      type: "string",
      enum: ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
      default: "info",
    },
    DATABASE_URL: { type: "string", pattern: "^postgres(ql)?://" },
    /** `redis://…` (one server), or `redis+cluster://[user:password@]host:port,host:port,…` (a Redis Cluster); required unless REDIS_CLUSTER_NODES. */
    REDIS_URL: { type: "string", pattern: "^rediss?(\\+cluster)?://" },
    /** `host:port,…`: the Redis Cluster's nodes to start from (credentials and TLS from REDIS_URL when set). */
    REDIS_CLUSTER_NODES: { type: "string" },
    /** Prefix of every Redis key (queues and cache), so that several deployments can share one Redis. */
    REDIS_PREFIX: { type: "string", minLength: 1, pattern: "^[A-Za-z0-9_.-]+$", default: "authsvc" },
    /** How long a request waits out a Redis failover (a cluster promoting a replica, a Sentinel switching) before its 503. */
    REDIS_FAILOVER_WAIT_MS: { type: "integer", minimum: 0, maximum: 120000, default: 20000 },
    /** `<version>:<base64 32-byte key>` entries, comma separated; highest version encrypts unless ENCRYPTION_ACTIVE_KEY. */
    ENCRYPTION_KEYS: { type: "string", minLength: 1 },
    ENCRYPTION_ACTIVE_KEY: { type: "integer", minimum: 1 },
    /** base64, 32 bytes: keys the HMAC of cache and single-flight fingerprints. */
    FINGERPRINT_KEY: { type: "string", minLength: 40 },

    GATEWAY_HOST: { type: "string", default: "0.0.0.0" },
    GATEWAY_PORT: { type: "integer", minimum: 0, maximum: 65535, default: 8080 },
    GATEWAY_MAX_BODY_BYTES: { type: "integer", minimum: 1024, default: 65536 },
    /** How long a login request waits for its job before answering 202 with a job id. */
    GATEWAY_WAIT_MS: { type: "integer", minimum: 0, default: 55000 },
    RATE_LIMIT_PER_MINUTE: { type: "integer", minimum: 1, default: 600 },
    TRUST_PROXY: { type: "boolean", default: false },

    WORKER_CONCURRENCY: { type: "integer", minimum: 1, maximum: 64, default: 2 },
    /** The worker regions this worker serves besides jobs of no region (`eu,us`); empty: none. */
    WORKER_REGIONS: { type: "string", default: "" },
    /** How long a job that asks for a region with no worker running waits for one to appear before it is refused (`region_unavailable`). */
    REGION_WAIT_MS: { type: "integer", minimum: 0, maximum: 600000, default: 10000 },
    /** Hard limit of one login attempt in the browser. */
    /** Browser jobs of one organization running at once, across all workers (0: no cap); the rest wait their turn. */
    ORG_MAX_RUNNING_JOBS: { type: "integer", minimum: 0, maximum: 10000, default: 10 },
    /** Logins to one site (login page host) running at once, across all organizations and workers (0: no cap). */
    SITE_MAX_RUNNING_JOBS: { type: "integer", minimum: 0, maximum: 10000, default: 5 },
    JOB_TIMEOUT_MS: { type: "integer", minimum: 1000, default: 45000 },
    JOB_ATTEMPTS: { type: "integer", minimum: 1, maximum: 10, default: 3 },
    JOB_BACKOFF_MS: { type: "integer", minimum: 0, default: 2000 },
    WORKER_SHUTDOWN_TIMEOUT_MS: { type: "integer", minimum: 1000, default: 60000 },
    /**
     * How long a worker's claim on a running job lasts unrenewed: a dead worker's job is taken over after it. At
     * least REDIS_FAILOVER_WAIT_MS + 3 s (a claim outlasts a failover the service waits out).
     */
    WORKER_LOCK_MS: { type: "integer", minimum: 2000, default: 30000 },
    /** How often workers look for jobs whose claim lapsed (dead workers); must be below WORKER_LOCK_MS. */
    WORKER_STALLED_CHECK_MS: { type: "integer", minimum: 500, default: 10000 },
    /** How many times a job whose worker died is run again before it fails for good. */
    WORKER_MAX_STALLED: { type: "integer", minimum: 0, maximum: 10, default: 1 },
    /** How often the sweep looks for jobs open in the database that the queue no longer runs. */
    JOB_SWEEP_EVERY_MS: { type: "integer", minimum: 1000, default: 60000 },
    /** How often the dashboard's job stats are brought up to date with the jobs that finished since. */
    JOB_STATS_EVERY_MS: { type: "integer", minimum: 1000, default: 60000 },
    /** How often the dashboard's per-site numbers (busiest sites, falling success rates) are computed again from the hourly counts. */
    JOB_STATS_SITES_EVERY_MS: { type: "integer", minimum: 1000, default: 300000 },
    WORKER_HEALTH_PORT: { type: "integer", minimum: 0, maximum: 65535, default: 8081 },
    /**
     * `full`: Chromium's new headless mode, the whole browser without a screen (a site sees a real Chrome);
     * `shell`: chromium-headless-shell, the old headless mode (no browser windows: much less CPU and memory per
     * login, but sites tell it apart more easily).
     */
    BROWSER_MODE: { type: "string", enum: ["full", "shell"], default: "full" },
    /** Default: /usr/bin/chromium, or /usr/lib/chromium/chromium-headless-shell with BROWSER_MODE=shell (DEFAULT_CHROMIUM). */
    CHROMIUM_PATH: { type: "string" },
    /** A worker replaces its Chromium after this many jobs (0: never). */
    BROWSER_RECYCLE_AFTER_JOBS: { type: "integer", minimum: 0, default: 500 },
    /** …or once Chromium's processes together hold more than this many MiB after a job, read at most every 5 s (0: never). */
    BROWSER_RECYCLE_ABOVE_MIB: { type: "integer", minimum: 0, default: 1024 },

    /** Address ranges (ipaddr.js names: loopback, private, linkLocal, uniqueLocal…) targets may resolve to. */
    TARGET_ALLOW_RANGES: { type: "string", default: "" },
    /** Tests and development only: `name=127.0.0.1:port,…` serves fixture pages under real host names. Refused in production. */
    EGRESS_HOST_MAP: { type: "string", default: "" },
    EGRESS_PROXY_ALLOW: { type: "string", default: "" },
    /** Tests and development only: base64 SHA-256 SPKI hashes of self-signed certificates Chromium accepts (the host map's fixtures). */
    BROWSER_TRUSTED_SPKI: { type: "string", default: "" },
    /** How long a session is served from the cache at most (shorter when its cookies expire sooner). */
    SESSION_TTL_SECONDS: { type: "integer", minimum: 1, default: 3600 },
    /**
     * A cached session is served only when the session check found it alive within this many seconds; an
     * older one is checked first (a request to the site with its cookies). 0: checked on every hit.
     */
    SESSION_CHECK_MAX_AGE: { type: "integer", minimum: 0, maximum: 86400, default: 120 },
    /** How long one request of the session check waits for the site. */
    SESSION_CHECK_TIMEOUT_MS: { type: "integer", minimum: 100, default: 5000 },
    /** How long an expired session (encrypted cookies) is kept before the retention sweep deletes it. */
    SESSION_RETENTION_HOURS: { type: "integer", minimum: 0, default: 24 },
    /** How long the record of a finished login job is kept. */
    JOB_RETENTION_DAYS: { type: "integer", minimum: 1, default: 30 },

    /** The service's mailbox domain: mailboxes get addresses on it, and mail-in accepts mail for nothing else. */
    MAIL_DOMAIN: {
      type: "string",
      pattern: "^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9-]{2,63}$",
      default: "mail.localhost",
    },
    MAIL_SMTP_HOST: { type: "string", default: "0.0.0.0" },
    MAIL_SMTP_PORT: { type: "integer", minimum: 0, maximum: 65535, default: 2525 },
    MAIL_HEALTH_PORT: { type: "integer", minimum: 0, maximum: 65535, default: 8082 },
    /**
     * DNS servers mail-in asks for DKIM and ARC keys (`address` or `address:port`, comma separated); empty: the
     * system's resolvers. A validating resolver of your own belongs here.
     */
    MAIL_DNS_SERVERS: { type: "string", default: "" },
    /**
     * Forwarders whose ARC seal is believed about the DKIM results they saw before forwarding (comma
     * separated sealing domains): Gmail and Workspace seal as google.com, Microsoft 365 and Outlook as
     * microsoft.com, Fastmail as messagingengine.com.
     */
    MAIL_ARC_TRUSTED_SEALERS: { type: "string", default: "google.com,microsoft.com,messagingengine.com" },
    /** Largest message mail-in accepts; verification mail is small. */
    MAIL_MAX_BYTES: { type: "integer", minimum: 1024, default: 2097152 },
    /** How long received mail and SMS (encrypted) are kept before they are deleted. */
    MESSAGE_RETENTION_MINUTES: { type: "integer", minimum: 1, default: 1440 },
    /**
     * How long a job that allowed a hand-off waits for a person's input (`needs_input`) in all, its page and
     * its organization's concurrency slot held, before it ends in `input_timeout`.
     */
    HANDOFF_MAX_WAIT_MS: { type: "integer", minimum: 1000, maximum: 3600000, default: 600000 },
    /** How many of one organization's jobs may wait for a person at once; past it, such a step ends the job as without a hand-off. */
    HANDOFF_MAX_WAITING_PER_ORG: { type: "integer", minimum: 1, default: 20 },
    /** How long a login waits for a code or link by email or SMS before it ends in `timeout`. */
    MFA_WAIT_MS: { type: "integer", minimum: 1000, default: 120000 },
    /** How often the keep-alive job looks for sessions to refresh; 0 switches keep-alive off. */
    KEEPALIVE_EVERY_MS: { type: "integer", minimum: 0, default: 300000 },
    /** A credential's newest session is refreshed when it expires within this many minutes. */
    KEEPALIVE_BEFORE_EXPIRY_MINUTES: { type: "integer", minimum: 1, default: 15 },
    /** Also refresh sessions older than this many hours (0: only by expiry). */
    KEEPALIVE_MAX_AGE_HOURS: { type: "integer", minimum: 0, default: 0 },
    /** Sessions keep-alive checks (SESSION_CHECK_MAX_AGE) in one run, least recently checked first; 0: no background checks. */
    KEEPALIVE_CHECKS_PER_RUN: { type: "integer", minimum: 0, default: 200 },
    /** Of those, at most this many on one site (origin) in one run. */
    KEEPALIVE_CHECKS_PER_SITE: { type: "integer", minimum: 1, default: 10 },
    /** Deliveries of one webhook event: retried on 5xx, 408, 429 and network faults, with exponential backoff. */
    WEBHOOK_ATTEMPTS: { type: "integer", minimum: 1, maximum: 20, default: 8 },
    WEBHOOK_BACKOFF_MS: { type: "integer", minimum: 0, default: 5000 },
    /** Twilio's auth token: checks X-Twilio-Signature on POST /v1/inbound/sms. Unset: the webhook answers 503. */
    TWILIO_AUTH_TOKEN: { type: "string", minLength: 8 },
    /** The public URL Twilio calls for SMS (it signs that URL); unset: the URL the gateway was called at. */
    SMS_WEBHOOK_URL: { type: "string", pattern: "^https?://" },
    /** The CAPTCHA solving service logins may use for a challenge: off, or a provider's API style (2captcha: in.php/res.php). */
    CAPTCHA_SOLVER: { type: "string", enum: ["off", "2captcha"], default: "off" },
    /** Base URL of that API (2captcha's own, or another provider's that serves the same API). */
    CAPTCHA_SOLVER_URL: { type: "string", pattern: "^https?://[^\\s]+$", default: "https://2captcha.com" },
    DASHBOARD_HOST: { type: "string", default: "0.0.0.0" },
    DASHBOARD_PORT: { type: "integer", minimum: 0, maximum: 65535, default: 8083 },
    /** The dashboard's public address ({dashboard_url}): form posts must come from its origin; links and invitations use it. Unset: the address it was called at. */
    DASHBOARD_URL: { type: "string", pattern: "^https?://[^\\s/]+(/[^\\s]*)?$" },
    /** How long a dashboard sign-in lasts. */
    DASHBOARD_SESSION_TTL_HOURS: { type: "integer", minimum: 1, maximum: 720, default: 12 },
    /** Dashboard cookies carry `Secure` (and the `__Host-` prefix); default: on, except with NODE_ENV development or test. Refused off in production. */
    DASHBOARD_COOKIE_SECURE: { type: "boolean" },
    /** The solving service's API key (a secret: never logged). Required when CAPTCHA_SOLVER is not off. */
    CAPTCHA_SOLVER_KEY: { type: "string", minLength: 8 },
  },
} as const;

type Properties = typeof envSchema.properties;
type ValueOf<P> = P extends { enum: readonly (infer W)[] }
  ? W
  : P extends { type: "integer" }
    ? number
    : P extends { type: "boolean" }
      ? boolean
      : string;
/** Variables the environment always has once checked: the required ones, and those with a default (ajv fills it in). */
type Present =
  | (typeof envSchema.required)[number]
  | { [K in keyof Properties]: Properties[K] extends { default: unknown } ? K : never }[keyof Properties];

/** The environment as the schema has checked and coerced it: the type read off the schema, not written again. */
export type Env = { [K in keyof Properties as K extends Present ? K : never]: ValueOf<Properties[K]> } & {
  [K in keyof Properties as K extends Present ? never : K]?: ValueOf<Properties[K]>;
};
