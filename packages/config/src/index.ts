export { loadConfig, ConfigError, type Config } from "./load-config";
export { envSchema } from "./env-schema";
