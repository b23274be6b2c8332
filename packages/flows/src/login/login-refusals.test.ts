import { newTotpSecret } from "@authsvc/crypto";
import type { LoginFlowError } from "../flow-error";
import { CASE_TIMEOUT_MS, expectFlowError, MATRIX_CASES, describeCases, useLoginMatrix } from "../testing/login-matrix";

// Every fixture page shape's refusals, straight through the engine: a wrong password, a wrong one-time
// code, an unknown username (by detection and by a learned flow), and the cases that end without a session
// (a locked account, a CAPTCHA, a code the caller cannot give, no form). Each answer carries the site's
// words where it has them, after exactly one attempt. The sign-ins are in login-cases.test.ts.
const { ahead, userFor, unknownUser, login, failedLogin } = useLoginMatrix();

describeCases(
  MATRIX_CASES.filter((c) => c.expect === "success" && c.wrongPassword),
  (c) => {
    const wrong = ahead.add(() => failedLogin(c, { ...userFor(c), password: "not-the-password" }));
    it(
      `answers a wrong password with ${c.wrongPassword}, the site's message, after one attempt`,
      async () => {
        const { err: thrown, attempts: counted } = await wrong();
        const err = expectFlowError(thrown);
        expect([err.code, err.retryable]).toEqual([c.wrongPassword, false]);
        expect(err.message).toMatch(/\p{L}{3,}/u);
        if (c.refusal) expect(err.message).toContain(c.refusal);
        expect(counted).toEqual({ [c.site]: 1 });
      },
      CASE_TIMEOUT_MS,
    );
  },
);

describe("TOTP after the password", () => {
  describeCases(
    MATRIX_CASES.filter((c) => c.wrongCode),
    (c) => {
      const wrongCode = ahead.add(() => failedLogin(c, { ...userFor(c), totpSecret: newTotpSecret() }));
      it(
        "reports a code the site refuses (wrong secret) with its words, after one attempt",
        async () => {
          const { err, attempts: counted } = await wrongCode();
          expect([expectFlowError(err).code, (err as LoginFlowError).message]).toEqual([
            "verification_failed",
            `the site refused the one-time code: ${c.wrongCode}`,
          ]);
          expect(counted).toEqual({ [c.site]: 1 });
        },
        CASE_TIMEOUT_MS,
      );
    },
  );
});

describe("identifier-first pages", () => {
  describeCases(
    MATRIX_CASES.filter((c) => c.unknownIdentifier),
    (c) => {
      const unknown = ahead.add(async () => {
        const { flow } = await login(c, userFor(c));
        const results = [];
        for (const learned of [null, flow]) results.push(await failedLogin(c, unknownUser(), learned));
        return results;
      });
      it(
        "answer an unknown username with invalid_credentials and the site's words, by detection and by a learned flow",
        async () => {
          for (const { err } of await unknown()) {
            expect([
              expectFlowError(err).code,
              (err as LoginFlowError).message,
              (err as LoginFlowError).retryable,
            ]).toEqual(["invalid_credentials", c.unknownIdentifier, false]);
          }
        },
        CASE_TIMEOUT_MS,
      );
    },
  );
});

describeCases(
  MATRIX_CASES.filter((c) => c.expect !== "success"),
  (c) => {
    const run = ahead.add(() => failedLogin(c, userFor(c)));
    it(
      `ends with ${c.expect}`,
      async () => {
        const { err, attempts: counted } = await run();
        expect(expectFlowError(err).code).toBe(c.expect);
        // A CAPTCHA the service cannot pass is never submitted: the site counts no attempt.
        if (c.expect === "captcha_blocked") expect(counted).toEqual({});
      },
      CASE_TIMEOUT_MS,
    );
  },
);
