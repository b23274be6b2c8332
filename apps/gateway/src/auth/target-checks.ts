import type { TargetGuard } from "@authsvc/egress";
import type { Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";
import type { LoginCommand } from "./parse-login-request";

/** A URL a browser is about to open must pass the target guard: its refusal is the API's error. */
export async function checkTarget(guard: TargetGuard, url: string): Promise<void> {
  const verdict = await guard.check(url);
  if (!verdict.allowed) throw new ApiError(verdict.code, `Target refused: ${verdict.reason}.`);
}

/** The proxy or pool a request names must be the organization's. */
export async function checkEgress(
  db: Pick<Database, "proxies">,
  orgId: string,
  egress: LoginCommand["egress"],
): Promise<void> {
  if (egress?.proxy && !(await db.proxies.find(orgId, egress.proxy))) {
    throw ApiError.invalid([
      { field: "/proxy", message: "is not a proxy of this organization (GET /v1/proxies lists them)" },
    ]);
  }
  if (egress?.proxyPool && !(await db.proxies.hasPool(orgId, egress.proxyPool))) {
    throw ApiError.invalid([
      { field: "/proxyPool", message: "names no proxy of this organization (a pool is the proxies of one label)" },
    ]);
  }
}
