/** Something a service needs before it takes work (Redis, PostgreSQL); `check` rejects, saying why, while it is not there. */
export interface Dependency {
  name: string;
  check: () => Promise<unknown>;
}

/** Where the wait is reported (a service's logger). */
export interface DependencyLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DependencyWait {
  /** How often a missing dependency is checked again. */
  retryMs?: number;
  /** How often the log says, while one is missing, that the service is still waiting for it. */
  reportEveryMs?: number;
  /** How long a dependency may take before the wait is reported at all (a connection is still opening at start). */
  graceMs?: number;
}

/**
 * Start-up: resolves once every dependency has answered, however long that takes. A service may start
 * before its Redis or database (an orchestrator starts them together), or on a machine so busy that a first
 * connection times out; giving up would only restart it into the same wait. The log says what it waits for
 * and why (the last error), so a wrong address is seen, and an orchestrator's startup probe bounds the wait.
 */
export async function waitForDependencies(
  log: DependencyLog,
  dependencies: Dependency[],
  options: DependencyWait = {},
): Promise<void> {
  const retryMs = options.retryMs ?? 500;
  const reportEveryMs = options.reportEveryMs ?? 10_000;
  const graceMs = options.graceMs ?? 1000;
  const started = Date.now();
  await Promise.all(
    dependencies.map(async ({ name, check }) => {
      let reportedAt: number | null = null;
      for (;;) {
        try {
          await check();
          if (reportedAt !== null)
            log.info({ dependency: name, waitedMs: Date.now() - started }, `${name} is there; starting`);
          return;
        } catch (err) {
          const now = Date.now();
          if (reportedAt === null ? now - started >= graceMs : now - reportedAt >= reportEveryMs) {
            reportedAt = now;
            log.warn(
              { dependency: name, waitedMs: now - started, err: err instanceof Error ? err.message : String(err) },
              `waiting for ${name}`,
            );
          }
        }
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }),
  );
}
