export { loadConfig, lockRenewMs, ConfigError, type Config } from "./load-config";
export { DEFAULT_CHROMIUM, chromiumPath } from "./chromium";
export { envSchema } from "./env-schema";
export { parseRedisTarget, type RedisTarget, type RedisNode } from "./redis-target";
