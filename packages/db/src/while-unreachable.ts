// Prisma's "can't reach the database server" and "server closed the connection", the driver's own connection
// faults, and PostgreSQL's shutdown and recovery states (57P01-57P03: "not yet accepting connections"): the
// server is restarting or failing over, and the same query will work in a moment.
const UNREACHABLE =
  /P1001|P1017|57P0[123]|Can't reach database server|Server has closed the connection|ECONNREFUSED|ECONNRESET|terminating connection|Connection terminated|not yet accepting connections/;

export function isDatabaseUnreachable(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return UNREACHABLE.test(`${String(code ?? "")} ${String(message ?? "")}`);
}

/**
 * Runs `fn` again while the database cannot be reached, for up to `forMs`: for the worker's writes that must
 * not be lost to a database restart (a signed-in session, the mark that a password is about to be sent).
 * Any other error, or the last one past `forMs`, is thrown.
 */
export async function whileUnreachable<T>(fn: () => Promise<T>, forMs: number, everyMs = 500): Promise<T> {
  const until = Date.now() + forMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!isDatabaseUnreachable(err) || Date.now() + everyMs > until) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
