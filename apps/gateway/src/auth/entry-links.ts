import { ENTRY_LINK_DEFAULT_EXPIRES_IN, type EntryLinkRequest, type EntryLinkResource } from "@authsvc/contracts";
import { ApiError } from "../http/api-error";
import type { AuthServiceDeps } from "./auth-service";
import { checkTarget } from "./target-checks";

/**
 * A link to the hosted page where an end user types their own credentials for the site (checked as a
 * target now, and again when its sign-in runs). It needs the dashboard's public address, which serves it.
 */
export async function createEntryLink(
  { config, db, guard, jobs }: Pick<AuthServiceDeps, "config" | "db" | "guard" | "jobs">,
  orgId: string,
  given: EntryLinkRequest,
): Promise<EntryLinkResource> {
  if (!config.dashboard.url)
    throw new ApiError(
      "method_not_supported",
      "Entry links need the dashboard's public address, which serves their page (DASHBOARD_URL).",
    );
  let url: URL;
  try {
    url = new URL(given.domain);
  } catch {
    throw ApiError.invalid([{ field: "/domain", message: "is not a valid URL" }]);
  }
  if (url.username || url.password)
    throw ApiError.invalid([
      { field: "/domain", message: "must not contain credentials: the end user types them on the link's page" },
    ]);
  await checkTarget(guard, url.toString());
  const row = await db.entryLinks.create({
    orgId,
    collectionExternalId: given.collectionId,
    loginUrl: url.toString(),
    siteOrigin: url.origin,
    method: given.login_method ?? "password",
    expiresAt: new Date(Date.now() + (given.expiresIn ?? ENTRY_LINK_DEFAULT_EXPIRES_IN) * 1000),
  });
  return jobs.viewEntryLink(row);
}
