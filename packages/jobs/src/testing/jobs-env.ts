import type { Queue } from "bullmq";
import { loadConfig, type Config } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { deleteRedisPrefix, freshTestDatabase, REDIS_URL } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import {
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  redisReady,
  SessionCache,
  SingleFlight,
  type AuthJobPayload,
} from "@authsvc/queue";
import { AuthJobs } from "../auth-jobs";

export interface JobsEnv {
  config: Config;
  db: Database;
  redis: ReturnType<typeof createRedis>;
  authQueue: Queue<AuthJobPayload>;
  jobs: AuthJobs;
}

/**
 * For a test file of a job's life: a fresh database of its own (`authsvc_<name>`), Redis under a prefix of
 * its own, the auth queue and AuthJobs over them, all real; closed (and the prefix deleted) after the file.
 * The fields are set once `beforeAll` ran; read them inside tests.
 */
export function useJobsEnv(name: string, queue: { attempts: number; backoffMs: number }): JobsEnv {
  const env = {} as JobsEnv;
  beforeAll(async () => {
    env.config = loadConfig(await freshTestDatabase(name));
    env.db = Database.fromConfig(env.config, 4);
    env.redis = createRedis(env.config.redis, "producer", `${name}-test`);
    await redisReady(env.redis);
    env.authQueue = createAuthQueue(env.redis, env.config.redis.prefix, queue);
    env.jobs = new AuthJobs({
      config: env.config,
      db: env.db,
      authQueue: env.authQueue,
      cache: new SessionCache(
        env.redis,
        env.config.redis.prefix,
        new Envelope(parseKeyRing(env.config.crypto.keyRing)),
      ),
      flight: new SingleFlight(env.redis, env.config.redis.prefix),
      webhookQueue: createWebhookQueue(env.redis, env.config.redis.prefix, env.config.webhooks),
      log: createLogger("test", "silent"),
    });
  });
  afterAll(async () => {
    await env.authQueue?.close();
    await env.redis?.quit();
    await env.db?.close();
    if (env.config) await deleteRedisPrefix(REDIS_URL, env.config.redis.prefix);
  });
  return env;
}
