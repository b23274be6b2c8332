import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { BrowserHost, chromiumPath, TargetGuard } from "@authsvc/browser";
import { LoginFlowError, parseLearnedFlow, passwordLogin, type PasswordLoginResult } from "@authsvc/flows";

const USAGE = `usage: pnpm try-login <login page URL> --user <username or email> (--password <pw> | --password-env <VAR>)
         [--field key=value ...] [--learned <flow.json>] [--allow <ranges>] [--timeout <ms>] [--out <dir>]

Runs one login in a local headless Chromium, outside the service, and shows each step, the verdict
and a screenshot of the page as it ended. Nothing is stored; no secret is printed.
  --password-env VAR  read the password from an environment variable (keeps it out of shell history)
  --field k=v         an additionalFields entry (repeatable), e.g. --field workspace=acme
  --learned FILE      replay a flow printed by an earlier run before falling back to detection
  --allow RANGES      address ranges the browser may reach besides public ones, e.g. loopback
                      (comma-separated; as TARGET_ALLOW_RANGES)
  --out DIR           where to save the screenshot (default .data/try-login)`;

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      password: { type: "string" },
      "password-env": { type: "string" },
      field: { type: "string", multiple: true },
      learned: { type: "string" },
      allow: { type: "string" },
      timeout: { type: "string" },
      out: { type: "string" },
      chromium: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [loginUrl] = positionals;
  if (!loginUrl || !/^https?:\/\//.test(loginUrl)) usage("give the login page's http(s) URL");
  if (!values.user) usage("--user is required");
  const password = values.password ?? (values["password-env"] ? process.env[values["password-env"]] : undefined);
  if (!password) usage("give --password, or --password-env naming a set variable");
  const additionalFields: Record<string, string> = {};
  for (const pair of values.field ?? []) {
    const eq = pair.indexOf("=");
    if (eq < 1) usage(`--field wants key=value, got "${pair}"`);
    additionalFields[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const learned = values.learned ? parseLearnedFlow(JSON.parse(readFileSync(values.learned, "utf8"))) : null;
  if (values.learned && !learned) usage(`${values.learned} does not hold a learned flow`);
  const timeoutMs = Number(values.timeout ?? 45_000);
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1000) usage("--timeout is in milliseconds, at least 1000");
  return {
    loginUrl,
    identifier: values.user!,
    password: password!,
    additionalFields,
    learned,
    allow: (values.allow ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    timeoutMs,
    outDir: path.resolve(values.out ?? ".data/try-login"),
    chromium: values.chromium ?? chromiumPath("full"),
  };
}

async function main(argv: string[]): Promise<number> {
  const args = parse(argv);
  const guard = new TargetGuard(args.allow);
  const host = new BrowserHost({ executablePath: args.chromium, guard });
  const started = Date.now();
  const elapsed = () => `${String(Date.now() - started).padStart(6)} ms`;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  mkdirSync(args.outDir, { recursive: true });
  const screenshot = path.join(
    args.outDir,
    `${new URL(args.loginUrl).hostname}-${new Date().toISOString().replace(/[:.]/g, "-")}.png`,
  );

  print(`try-login ${args.loginUrl} as ${args.identifier}`);
  let result: PasswordLoginResult | null = null;
  let failure: unknown = null;
  try {
    await host.withPage(async (page) => {
      try {
        result = await passwordLogin(
          page,
          {
            loginUrl: args.loginUrl,
            identifier: args.identifier,
            password: args.password,
            additionalFields: args.additionalFields,
          },
          {
            guard,
            timeoutMs: args.timeoutMs,
            learned: args.learned,
            onStep: (step) => print(`  ${elapsed()}  ${step}`),
          },
        );
      } catch (err) {
        failure = err;
      }
      // The page as the login left it: what an operator looks at to see why a site fails.
      await page.screenshot({ path: screenshot as `${string}.png`, fullPage: true }).catch(() => undefined);
    });
  } finally {
    await host.close();
  }

  if (result) {
    const { session, flow, source } = result as PasswordLoginResult;
    print(`verdict: success after ${Date.now() - started} ms (${source})`);
    print(`cookies: ${session.cookies.map((c) => `${c.name}@${c.domain}`).join(", ") || "none"}`);
    print(`origins: ${session.origins.join(", ")}`);
    const storage = session.storageState.origins.map(
      (o) => `${o.origin}: ${o.localStorage.map((e) => e.name).join(", ")}`,
    );
    if (storage.length) print(`localStorage keys: ${storage.join("; ")}`);
    print(`learned flow (replay with --learned): ${JSON.stringify(flow)}`);
  } else {
    const err = failure as unknown;
    const [code, message] = err instanceof LoginFlowError ? [err.code, err.message] : ["internal_error", String(err)];
    print(`verdict: ${code} after ${Date.now() - started} ms: ${message}`);
  }
  print(`screenshot: ${screenshot}`);
  return result ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`try-login failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
