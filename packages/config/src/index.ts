export { loadConfig, lockRenewMs, ConfigError, DEFAULT_CHROMIUM, chromiumPath, type Config } from "./load-config";
export { envSchema } from "./env-schema";
export { parseRedisTarget, type RedisTarget, type RedisNode } from "./redis-target";
