import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "./repo-root";

export const DEV_ENV_FILE = path.join(DATA_DIR, "dev.env");

export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (m) env[m[1]!] = m[2]!;
  }
  return env;
}

export function randomKeyEnv(): Record<string, string> {
  return {
    ENCRYPTION_KEYS: `1:${randomBytes(32).toString("base64")}`,
    FINGERPRINT_KEY: randomBytes(32).toString("base64"),
  };
}

/**
 * The development environment: `.data/dev.env`, written on first run with fresh encryption keys (kept, so
 * that data encrypted yesterday still opens today). Variables already set in the shell win.
 */
export function loadOrCreateDevEnv(): Record<string, string> {
  if (!existsSync(DEV_ENV_FILE)) {
    mkdirSync(DATA_DIR, { recursive: true });
    const initial = {
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/authsvc",
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: "authsvc-dev",
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_PORT: "8080",
      WORKER_HEALTH_PORT: "8081",
      TARGET_ALLOW_RANGES: "loopback",
      ...randomKeyEnv(),
    };
    const body = Object.entries(initial)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n");
    writeFileSync(
      DEV_ENV_FILE,
      `# Development settings, made by npm start. Keys here open .data's encrypted rows.\n${body}\n`,
      { mode: 0o600 },
    );
  }
  const fromFile = parseEnvFile(readFileSync(DEV_ENV_FILE, "utf8"));
  const env: Record<string, string> = { ...fromFile };
  for (const name of Object.keys(fromFile)) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}
