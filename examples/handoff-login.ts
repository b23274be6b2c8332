/**
 * A login that may need a person: a code from their phone, an approval, a CAPTCHA. With `allowHandoff`, the
 * job waits for them instead of failing; this script prints the hosted hand-off page (send it to your user)
 * and, for a code, also reads one typed here. The session comes back as from any login. Run from the root:
 *
 *   AUTHSVC_BASE_URL=http://127.0.0.1:8080 AUTHSVC_API_KEY=pk_… \
 *   LOGIN_URL=https://app.example.com/login USERNAME=ada PASSWORD=… \
 *   node -r ./scripts/swc-register.cjs examples/handoff-login.ts
 *
 * Exits 0 signed in, 1 on an error (the API's code and the site's words).
 */
import { createInterface } from "node:readline/promises";
import { AuthClient, AuthsvcError } from "@authsvc/sdk";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the comment at the top of examples/handoff-login.ts)`);
  return value;
}

async function main(): Promise<number> {
  const client = new AuthClient({ baseUrl: env("AUTHSVC_BASE_URL"), apiKey: env("AUTHSVC_API_KEY") });
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const session = await client.login(
      {
        domain: env("LOGIN_URL"),
        login_method: "password",
        cred: { username: env("USERNAME"), password: env("PASSWORD") },
        useCache: false,
        allowHandoff: true,
      },
      {
        onNeedsInput: async (input, jobId) => {
          console.log(`authsvc: the site needs a person (${input.reason}): ${input.prompt}`);
          if (input.handoffUrl) console.log(`authsvc: finish it here until ${input.expiresAt}: ${input.handoffUrl}`);
          // A code can also be answered through the API; anything else is done on the hand-off page.
          if (input.fields.includes("code")) {
            const code = (await terminal.question("code (or Enter to use the page): ")).trim();
            if (code) await client.jobs.input(jobId, { code });
          }
        },
      },
    );
    console.log(`authsvc: signed in; ${session.cookies.length} cookie(s) for ${session.origins.join(", ")}`);
    return 0;
  } finally {
    terminal.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof AuthsvcError ? `authsvc refused: ${err.code}: ${err.message}` : err);
    process.exit(1);
  },
);
