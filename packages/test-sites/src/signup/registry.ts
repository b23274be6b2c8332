import type { Accounts } from "../accounts";

/** What a signup page keeps of an account it created (never the password). */
export interface SignupRecord {
  site: string;
  email: string | null;
  username: string | null;
  /** The full name, or "First Last". */
  name: string | null;
  termsAccepted: boolean;
  newsletter: boolean;
  confirmed: boolean;
  /** The invitation token it was created with. */
  invitation: string | null;
  createdAt: number;
}

type NewAccount = Partial<
  Pick<SignupRecord, "email" | "username" | "name" | "termsAccepted" | "newsletter" | "invitation">
>;

/**
 * Every account the signup pages created, pending or confirmed. A confirmed one is also a user of
 * Accounts (by email and by username), so the login pages and sessions work for it.
 */
export class SignupRegistry {
  private readonly records: SignupRecord[] = [];
  // A pending account's password waits here until it is confirmed; records never carry it.
  private readonly passwords = new Map<SignupRecord, string>();

  constructor(private readonly accounts: Accounts) {}

  /** Records a new account; `confirmed` for the sites that need no confirmation. */
  create(site: string, account: NewAccount, password: string, confirmed: boolean): SignupRecord {
    const record: SignupRecord = {
      site,
      email: account.email ?? null,
      username: account.username ?? null,
      name: account.name ?? null,
      termsAccepted: account.termsAccepted ?? false,
      newsletter: account.newsletter ?? false,
      confirmed: false,
      invitation: account.invitation ?? null,
      createdAt: Date.now(),
    };
    this.records.push(record);
    this.passwords.set(record, password);
    if (confirmed) this.confirm(record);
    return record;
  }

  /** Whether `password` is the one a pending (unconfirmed) account was created with. */
  pendingPasswordIs(record: SignupRecord, password: string): boolean {
    return !record.confirmed && this.passwords.has(record) && this.passwords.get(record) === password;
  }

  /** Confirms the account; `password` is the one set on the site's set-password page, where it had none. */
  confirm(record: SignupRecord, password = this.passwords.get(record) ?? ""): void {
    this.passwords.delete(record);
    record.confirmed = true;
    if (record.email) this.accounts.addUser(record.email, password);
    if (record.username) this.accounts.addUser(record.username, password);
  }

  /** The accounts with this email address or username, on any site (case-insensitive). */
  find(key: string): SignupRecord[] {
    const wanted = key.toLowerCase();
    return this.records.filter((r) => r.email?.toLowerCase() === wanted || r.username?.toLowerCase() === wanted);
  }

  /** Whether a site already has this address: a login user, or an account signed up there (pending included). */
  emailTaken(site: string, email: string): boolean {
    const wanted = email.toLowerCase();
    return (
      this.accounts.hasUser(email) || this.records.some((r) => r.site === site && r.email?.toLowerCase() === wanted)
    );
  }

  /** Whether a username is a login user's or any signed-up account's. */
  usernameTaken(username: string): boolean {
    const wanted = username.toLowerCase();
    return this.accounts.hasUser(username) || this.records.some((r) => r.username?.toLowerCase() === wanted);
  }
}
