/**
 * Credentials your user types themselves: asks authsvc for an entry link, prints it (send it to your user),
 * waits until they signed in on it, then signs in with the stored credential by its id. Your code never
 * sees their password. Run from the repository root:
 *
 *   AUTHSVC_BASE_URL=http://127.0.0.1:8080 AUTHSVC_API_KEY=pk_… LOGIN_URL=https://app.example.com/login \
 *   node -r ./scripts/swc-register.cjs examples/entry-link.ts
 *
 * Prints the link, then the credential and the session; exits 1 when the link failed or expired.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AuthClient, AuthsvcError } from "@authsvc/sdk";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the comment at the top of examples/entry-link.ts)`);
  return value;
}

async function main(): Promise<number> {
  const client = new AuthClient({ baseUrl: env("AUTHSVC_BASE_URL"), apiKey: env("AUTHSVC_API_KEY") });
  const link = await client.credentials.entryLink({
    domain: env("LOGIN_URL"),
    expiresIn: Number(process.env.EXPIRES_IN ?? 3600),
  });
  console.log(`send this to your user (until ${link.expiresAt}): ${link.url}`);
  // A webhook (`credential.created`) tells you without polling; this script has no endpoint, so it asks.
  let seen = link.status;
  for (;;) {
    const now = await client.credentials.getEntryLink(link.linkId);
    if (now.status !== seen)
      console.log(`link: ${now.status}${now.lastError ? ` (the site said: ${now.lastError.message})` : ""}`);
    seen = now.status;
    if (now.status === "created") {
      const session = await client.refresh({ credentialId: now.credentialId! });
      console.log(
        `credential: ${now.credentialId}; signed in with ${session.cookies.length} cookie(s) for ${session.origins.join(", ")}`,
      );
      return 0;
    }
    if (now.status === "failed" || now.status === "expired") return 1;
    await sleep(2000);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof AuthsvcError ? `authsvc refused: ${err.code}: ${err.message}` : err);
    process.exit(1);
  },
);
