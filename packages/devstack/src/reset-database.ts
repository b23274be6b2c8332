import { Client } from "pg";

/** Drops and recreates a test database, so every run starts empty. Refuses names without `_test`/`_e2e`/`_bench`. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z0-9_]+_(test|e2e|bench|unit)[a-z0-9_]*$/.test(name)) throw new Error(`refusing to drop database "${name}"`);
  url.pathname = "/postgres";
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key under a prefix (SCAN, never KEYS). */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
