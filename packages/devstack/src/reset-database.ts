import { Cluster } from "ioredis";
import { Client } from "pg";
import { parseRedisTarget } from "@authsvc/config";
import { createRedis, redisReady } from "@authsvc/queue";

/** Drops and recreates a test database, so every run starts empty. Refuses names without `_test`/`_e2e`/`_bench`. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z0-9_]+_(test|e2e|bench|unit)[a-z0-9_]*$/.test(name))
    throw new Error(`refusing to drop database "${name}"`);
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

/** Deletes every Redis key under a prefix (SCAN, never KEYS), on one server or on each master of a cluster. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const problems: string[] = [];
  const target = parseRedisTarget(redisUrl, undefined, problems);
  if (problems.length) throw new Error(problems.join("; "));
  const client = createRedis(target, "blocking", "test-cleanup");
  try {
    if (client instanceof Cluster) await redisReady(client, 30_000);
    for (const node of client instanceof Cluster ? client.nodes("master") : [client]) {
      let cursor = "0";
      do {
        const [next, keys] = await node.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
        // One DEL per key: on a cluster the keys of one call must share a slot.
        if (keys.length) await Promise.all(keys.map((key) => node.del(key)));
        cursor = next;
      } while (cursor !== "0");
    }
  } finally {
    client.disconnect();
  }
}
