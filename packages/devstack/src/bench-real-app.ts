import type { Browser } from "puppeteer-core";
import { baseline, freshTotpStep } from "./bench-real-baseline";
import { describe, post, prove, provenText, serviceLogin, type Answer } from "./bench-real-session";
import { fmtMs, noAnswer, type Row } from "./bench-real-table";
import { say } from "./real-apps/places";
import type { LoginVariant, RealApp } from "./real-apps/real-app";
import type { Stack } from "./stack";

/**
 * The cases of one application: per login variant the proof check and the hand-written baseline, then,
 * with the service (`stack`), its first and learned logins and a wrong password; its sign-up where it has one.
 * `key`: the API key of the application's own organization.
 */
export async function benchApp(app: RealApp, browser: Browser, stack: Stack | null, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const variant of app.variants) {
    const base = await baseline(browser, app, variant);
    const baselineText = base.ms !== null ? fmtMs(base.ms) : `failed: ${base.error}`;
    if (variant === app.variants[0] || variant.proof) {
      // The proof must tell a session from none, or "session proven" would mean nothing.
      const anonymous = await prove(browser, variant.proof ?? app.proof, null);
      rows.push({
        app: app.name,
        case: `${variant.proof ? `${variant.label}: ` : ""}proof check (baseline session / no session)`,
        expected: "yes / no",
        got: `${base.proven ? "yes" : "no"} / ${anonymous ? "yes" : "no"}`,
        ok: base.proven && !anonymous,
        proven: "—",
        ms: null,
        baseline: baselineText,
      });
    }
    if (!stack) {
      rows.push({
        app: app.name,
        case: `${variant.label}: hand-written login`,
        expected: "signs in",
        got: base.error ?? "signs in",
        ok: !base.error,
        proven: "—",
        ms: base.ms,
        baseline: baselineText,
      });
      continue;
    }
    const service = stack;
    const signIn = async (name: string, cred: LoginVariant["cred"], expected: "200" | "422 invalid_credentials") => {
      let answer: Answer;
      try {
        answer = await freshTotpStep(variant, () => serviceLogin(service, key, variant, cred));
      } catch (err) {
        rows.push(noAnswer(app.name, name, expected, err as Error, baselineText));
        return;
      }
      const got = describe(answer);
      const proven = answer.status === 200 ? await provenText(browser, variant.proof ?? app.proof, answer.body) : "—";
      const ok =
        expected === "200"
          ? answer.status === 200 && proven === "yes"
          : answer.status === 422 && answer.body.error?.code === "invalid_credentials";
      rows.push({ app: app.name, case: name, expected, got, ok, proven, ms: answer.ms, baseline: baselineText });
      say(`  ${name}: ${got}${answer.status === 200 ? `, session proven ${proven}` : ""} (${fmtMs(answer.ms)})`);
    };
    await signIn(`${variant.label}: first login (detected)`, variant.cred, "200");
    await signIn(`${variant.label}: learned login`, variant.cred, "200");
    if (variant.wrongPassword)
      await signIn(
        `${variant.label}: wrong password`,
        { ...variant.cred, password: `${variant.cred.password}-wrong` },
        "422 invalid_credentials",
      );
  }
  if (app.signup && stack) {
    const answer = await post(stack, key, "/v1/signup", {
      signup_method: "email",
      domain: app.signup.url,
      allocateMailbox: true,
    }).catch((err: Error) => err);
    if (answer instanceof Error) {
      rows.push(noAnswer(app.name, `sign-up: ${app.signup.about}`, "201", answer, "—"));
    } else {
      const proven = answer.status === 201 ? await provenText(browser, app.proof, answer.body) : "—";
      rows.push({
        app: app.name,
        case: `sign-up: ${app.signup.about}`,
        expected: "201",
        got: describe(answer),
        ok: answer.status === 201 && proven === "yes",
        proven,
        ms: answer.ms,
        baseline: "—",
      });
      say(
        `  sign-up: ${describe(answer)}${answer.status === 201 ? `, session proven ${proven}` : ""} (${fmtMs(answer.ms)})`,
      );
    }
  }
  return rows;
}
