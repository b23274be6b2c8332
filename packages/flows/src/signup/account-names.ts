import { randomInt } from "node:crypto";

/** A username from the email's local part (its +tag dropped), as people pick one: letters and digits. */
export function usernameFrom(email: string | undefined): string {
  const local = (email ?? "")
    .split("@")[0]!
    .split("+")[0]!
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  return local.length >= 3 ? local.slice(0, 20) : `user${randomInt(10_000, 100_000)}`;
}

/** Another username like the taken one: its stem and four random digits. */
export function usernameVariant(taken: string): string {
  return `${taken.replace(/\d{4}$/, "").slice(0, 16)}${randomInt(1000, 10_000)}`;
}

/** First and last name from `name`, else from the email's local part ("ada.lovelace@" gives Ada Lovelace). */
export function namesFor(
  name: string | undefined,
  email: string | undefined,
): { full: string; first: string; last: string } {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  if (name?.trim()) {
    const [first, ...rest] = name.trim().split(/\s+/);
    return { full: name.trim(), first: first!, last: rest.join(" ") || first! };
  }
  const parts = (email ?? "")
    .split("@")[0]!
    .split("+")[0]!
    .split(/[._-]+/)
    .map((p) => p.replace(/[^a-zA-Z]/g, ""))
    .filter((p) => p.length >= 2);
  const first = cap((parts[0] ?? "agent").toLowerCase());
  const last = cap((parts[1] ?? "user").toLowerCase());
  return { full: `${first} ${last}`, first, last };
}
