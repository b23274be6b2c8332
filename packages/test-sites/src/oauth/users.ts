import { randomUUID } from "node:crypto";
import { parseTotpSecret, totpCode, type TotpSpec } from "@authsvc/crypto";

/** A user of the fixture identity provider, as a test adds one. */
export interface AcmeUserInput {
  email: string;
  password: string;
  /** A TOTP secret (base32 or otpauth URI): the user has a second step with an authenticator app. */
  totpSecret?: string;
  /** The user gets a code by email after the password. */
  emailCode?: boolean;
  /** The provider refuses this user after a correct password ("this browser may not be secure"). */
  blocked?: boolean;
  /** The provider never lets this account grant a site access (an administrator's policy): every authorization ends access_denied. */
  consentDenied?: boolean;
}

export interface AcmeUser {
  /** The id token's `sub`: stable per email, opaque like a real provider's. */
  sub: string;
  email: string;
  password: string;
  totp: TotpSpec | null;
  emailCode: boolean;
  blocked: boolean;
  consentDenied: boolean;
}

const normalize = (email: string) => email.trim().toLowerCase();

/** Acme ID's user database, and a count of every password submitted for each email (known or not). */
export class AcmeUsers {
  private readonly byEmail = new Map<string, AcmeUser>();
  private readonly submissions = new Map<string, number>();

  add(input: AcmeUserInput): AcmeUser {
    const email = normalize(input.email);
    // Adding an existing user again changes its settings, not its identity: links on the sites stay valid.
    const sub = this.byEmail.get(email)?.sub ?? randomUUID();
    const user: AcmeUser = {
      sub,
      email,
      password: input.password,
      totp: input.totpSecret ? parseTotpSecret(input.totpSecret) : null,
      emailCode: input.emailCode === true,
      blocked: input.blocked === true,
      consentDenied: input.consentDenied === true,
    };
    this.byEmail.set(email, user);
    return user;
  }

  bySub(sub: string): AcmeUser | undefined {
    for (const user of this.byEmail.values()) if (user.sub === sub) return user;
    return undefined;
  }

  byAddress(email: string): AcmeUser | undefined {
    return this.byEmail.get(normalize(email));
  }

  /** Counts the submission, then the user when the password is theirs (a blocked user too: the wall comes after). */
  checkPassword(email: string, password: string): AcmeUser | null {
    const key = normalize(email);
    this.submissions.set(key, (this.submissions.get(key) ?? 0) + 1);
    const user = this.byEmail.get(key);
    return user && password !== "" && user.password === password ? user : null;
  }

  /** Whether `code` is the user's TOTP code now, or of the window before or after (clock drift, as providers allow). */
  checkTotp(user: AcmeUser, code: string): boolean {
    const spec = user.totp;
    if (!spec) return false;
    return [-1, 0, 1].some((step) => totpCode(spec, Date.now() + step * spec.period * 1000) === code.trim());
  }

  passwordSubmissions(email: string): number {
    return this.submissions.get(normalize(email)) ?? 0;
  }

  resetCounts(): void {
    this.submissions.clear();
  }
}
