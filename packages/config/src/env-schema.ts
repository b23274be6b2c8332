import { CORE_VARS } from "./env/core";
import { DASHBOARD_VARS } from "./env/dashboard";
import { EGRESS_VARS } from "./env/egress";
import { GATEWAY_VARS } from "./env/gateway";
import { INTEGRATIONS_VARS } from "./env/integrations";
import { JOBS_VARS } from "./env/jobs";
import { MAIL_VARS } from "./env/mail";
import { SESSIONS_VARS } from "./env/sessions";
import { WORKER_VARS } from "./env/worker";

/**
 * Every environment variable the service reads, each written once in env/ (its type, bounds, default and
 * description): ajv checks the environment against this schema, `Env` is read off it, and the table of
 * docs/configuration.md is generated from it. Nothing else reads process.env. The order here is the table's,
 * and the order in which a bad environment's problems are listed.
 */
export const envSchema = {
  type: "object",
  required: ["DATABASE_URL", "ENCRYPTION_KEYS", "FINGERPRINT_KEY"],
  properties: {
    ...CORE_VARS,
    ...GATEWAY_VARS,
    ...WORKER_VARS,
    ...EGRESS_VARS,
    ...SESSIONS_VARS,
    ...MAIL_VARS,
    ...JOBS_VARS,
    ...INTEGRATIONS_VARS,
    ...DASHBOARD_VARS,
  },
} as const;

type Properties = typeof envSchema.properties;
type ValueOf<P> = P extends { enum: readonly (infer W)[] }
  ? W
  : P extends { type: "integer" }
    ? number
    : P extends { type: "boolean" }
      ? boolean
      : string;
/** Variables the environment always has once checked: the required ones, and those with a default (ajv fills it in). */
type Present =
  | (typeof envSchema.required)[number]
  | { [K in keyof Properties]: Properties[K] extends { default: unknown } ? K : never }[keyof Properties];

/** The environment as the schema has checked and coerced it: the type read off the schema, not written again. */
export type Env = { [K in keyof Properties as K extends Present ? K : never]: ValueOf<Properties[K]> } & {
  [K in keyof Properties as K extends Present ? never : K]?: ValueOf<Properties[K]>;
};
