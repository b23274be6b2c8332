import { Client } from "pg";
import { createRedis } from "@authsvc/queue";

/** What the stores did over a run: Postgres statements and row writes in the stack's database, Redis commands and memory. */
export interface StoreLoad {
  postgres: { transactions: number; rowsWritten: number; bytes: number };
  redis: { commands: number; memoryBytes: number };
}

/**
 * A reading of the stores' own counters (pg_stat_database for the database, INFO on Redis), for the
 * capacity model: take one before and one after a run, and `storeLoadBetween` tells what each login cost them.
 * The database's counters are shared by everything on it (the run's own setup too), and Redis' by every
 * prefix: run it on a stack of its own. Other sessions report their statistics to Postgres at most once a
 * second: read the "after" a couple of seconds after the run.
 */
export async function readStoreLoad(databaseUrl: string, redisUrl: string): Promise<StoreLoad> {
  const pg = new Client({ connectionString: databaseUrl });
  // Blocking: its commands wait for the connection (and on a cluster these read one node).
  const redis = createRedis(redisUrl, "blocking", "bench-store-load");
  await pg.connect();
  try {
    await pg.query("SELECT pg_stat_force_next_flush()").catch(() => undefined);
    const { rows } = await pg.query<{ xact: string; written: string; bytes: string }>(
      `SELECT xact_commit + xact_rollback AS xact, tup_inserted + tup_updated + tup_deleted AS written, pg_database_size(datname) AS bytes
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    const stats = await redis.info("stats");
    const memory = await redis.info("memory");
    const field = (text: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(text)?.[1] ?? 0);
    return {
      postgres: {
        transactions: Number(rows[0]?.xact ?? 0),
        rowsWritten: Number(rows[0]?.written ?? 0),
        bytes: Number(rows[0]?.bytes ?? 0),
      },
      redis: { commands: field(stats, "total_commands_processed"), memoryBytes: field(memory, "used_memory") },
    };
  } finally {
    await pg.end();
    redis.disconnect();
  }
}

/** Per login, from two readings around `logins` logins. */
export function storeLoadBetween(before: StoreLoad, after: StoreLoad, logins: number) {
  const per = (a: number, b: number) => (b - a) / logins;
  return {
    postgresTransactions: per(before.postgres.transactions, after.postgres.transactions),
    postgresRowsWritten: per(before.postgres.rowsWritten, after.postgres.rowsWritten),
    postgresBytes: per(before.postgres.bytes, after.postgres.bytes),
    redisCommands: per(before.redis.commands, after.redis.commands),
    redisBytes: per(before.redis.memoryBytes, after.redis.memoryBytes),
  };
}
