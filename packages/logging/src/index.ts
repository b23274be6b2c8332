import pino, { type Logger } from "pino";

export type { Logger };
export { EVENT_LOOP_SAMPLE_MS, processMetricsRegistry } from "./process-metrics";

// Anything that could carry a secret, wherever it sits in a logged object: target passwords, TOTP secrets,
// cookie values, API keys and Authorization headers, a passkey's private key (and a passkey import whole).
export const REDACT_PATHS = [
  "password",
  "*.password",
  "*.*.password",
  "totpSecret",
  "*.totpSecret",
  "*.*.totpSecret",
  "cred",
  "*.cred",
  "apiKey",
  "*.apiKey",
  "key",
  "*.key",
  "*.*.key",
  "privateKey",
  "*.privateKey",
  "*.*.privateKey",
  "import",
  "*.import",
  "cookies",
  "*.cookies",
  "storageState",
  "*.storageState",
  "authorization",
  "*.authorization",
  "*.headers.authorization",
  "*.headers.cookie",
  '*.headers["set-cookie"]',
];

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
