import { randomBytes } from "node:crypto";

/** Invitations to the signup-invite site, made through POST /__fixture/invitations; each is good once. */
export class Invitations {
  // token → the address the invitation is bound to (null: anyone's); a used one is gone.
  private readonly open = new Map<string, string | null>();

  create(email: string | null = null): string {
    const token = randomBytes(24).toString("base64url");
    this.open.set(token, email);
    return token;
  }

  /** The unused invitation behind a token, with the address it is bound to. */
  find(token: string): { email: string | null } | undefined {
    return this.open.has(token) ? { email: this.open.get(token) ?? null } : undefined;
  }

  use(token: string): void {
    this.open.delete(token);
  }
}
