import { text, type EnvVars } from "./env-var";

/** The web dashboard. */
export const DASHBOARD_VARS = {
  DASHBOARD_HOST: {
    type: "string",
    default: "0.0.0.0",
    description: "Address the dashboard listens on.",
  },
  DASHBOARD_PORT: {
    type: "integer",
    minimum: 0,
    maximum: 65535,
    default: 8083,
    description: "Port of the dashboard (web pages, `/healthz`, `/readyz`).",
  },
  DASHBOARD_URL: {
    type: "string",
    pattern: "^https?://[^\\s/]+(/[^\\s]*)?$",
    description: text(
      "The dashboard's public address (the interface's `{dashboard_url}`), e.g.",
      "`https://dashboard.example.com`. Form posts whose `Origin` is not its origin are refused (CSRF), and",
      "invitation links are built on it. Unset: the address the dashboard was called at. Must be `https` in",
      "production.",
    ),
  },
  DASHBOARD_SESSION_TTL_HOURS: {
    type: "integer",
    minimum: 1,
    maximum: 720,
    default: 12,
    description: "How long a dashboard sign-in lasts.",
  },
  DASHBOARD_COOKIE_SECURE: {
    type: "boolean",
    // No schema default: it depends on NODE_ENV (loadConfig).
    docDefault: "on, off in development and test",
    description: "Dashboard cookies carry `Secure` and the `__Host-` name prefix. Production refuses `false`.",
  },
} as const satisfies EnvVars;
