import { randomInt } from "node:crypto";
import {
  ALNUM,
  charsOf,
  compilePattern,
  DIGIT,
  intersect,
  LOWER,
  SAFE_SPECIALS,
  SPECIAL,
  UNIVERSE,
  UPPER,
} from "./password-chars";
import type { PasswordRules } from "./password-rules";

export class PasswordRulesError extends Error {
  override name = "PasswordRulesError";
}

const PREFERRED_LENGTH = 20;
const DEFAULT_MAX_LENGTH = 64;
const MAX_TRIES = 200;

/** A random password that satisfies the rules; throws PasswordRulesError when none can. */
export function generatePassword(rules: PasswordRules): string {
  const longest = rules.maxLength ?? Math.max(DEFAULT_MAX_LENGTH, rules.minLength);
  if (rules.minLength > longest)
    throw new PasswordRulesError(`minimum length ${rules.minLength} exceeds maximum length ${longest}`);
  const allowed = rules.allowed ?? UNIVERSE;
  if (allowed === "") throw new PasswordRulesError("no character is allowed");
  const requiredPools = rules.required.map((r) => preferSafe(intersect(charsOf(r), allowed)));
  if (requiredPools.includes("")) throw new PasswordRulesError("a required character class is not allowed");
  const shapes = candidateShapes(rules, allowed, longest);
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const shape = shapes[attempt % shapes.length]!;
    const candidate = assemble(shape.length, requiredPools, shape.optionalPools, shape.fill);
    if (candidate !== null && satisfies(rules, candidate)) return candidate;
  }
  throw new PasswordRulesError(`no password satisfying the rules found in ${MAX_TRIES} tries`);
}

export function satisfies(rules: PasswordRules, password: string): boolean {
  const chars = [...password];
  const allowed = rules.allowed ?? UNIVERSE;
  const pattern = rules.pattern === null ? null : compilePattern(rules.pattern);
  return (
    password.length >= rules.minLength &&
    (rules.maxLength === null || password.length <= rules.maxLength) &&
    rules.required.every((r) => chars.some((c) => charsOf(r).includes(c))) &&
    chars.every((c) => allowed.includes(c)) &&
    (pattern === null || pattern.test(password)) &&
    longestRun(chars) <= (rules.maxConsecutive ?? Infinity)
  );
}

interface Shape {
  length: number;
  optionalPools: string[];
  fill: string;
}

// Only chance fails the preferred shape; a pattern may also want another length or no specials, so try those too.
function candidateShapes(rules: PasswordRules, allowed: string, longest: number): Shape[] {
  const preferred = Math.min(Math.max(rules.minLength, PREFERRED_LENGTH), longest);
  const alnum = intersect(allowed, ALNUM);
  // A space only comes from an explicit set, and preferSafe keeps it as the last resort.
  const specials = preferSafe(intersect(allowed, SPECIAL + " "));
  const classPools = [LOWER, UPPER, DIGIT].map((cls) => intersect(allowed, cls)).filter((p) => p !== "");
  const full = { optionalPools: [...classPools, specials].filter((p) => p !== ""), fill: alnum + specials || allowed };
  if (rules.pattern === null) return [{ length: preferred, ...full }];
  const plain = { optionalPools: classPools, fill: alnum || full.fill };
  const shortest = Math.max(rules.minLength, 1);
  const lengths = Array.from({ length: longest - shortest + 1 }, (_, i) => shortest + i).sort(
    (x, y) => Math.abs(x - preferred) - Math.abs(y - preferred) || x - y,
  );
  return lengths.flatMap((length) => [
    { length, ...full },
    { length, ...plain },
  ]);
}

/** One character from each required pool (unless already covered), then the optional ones, then fill; shuffled. Null when the requirements do not fit. */
function assemble(length: number, requiredPools: string[], optionalPools: string[], fill: string): string | null {
  const picks: string[] = [];
  const covered = (pool: string) => picks.some((c) => pool.includes(c));
  for (const pool of requiredPools) {
    if (covered(pool)) continue;
    if (picks.length === length) return null;
    picks.push(pick(pool));
  }
  for (const pool of optionalPools) if (!covered(pool) && picks.length < length) picks.push(pick(pool));
  while (picks.length < length) picks.push(pick(fill));
  return shuffle(picks).join("");
}

function pick(pool: string): string {
  return pool[randomInt(pool.length)]!;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

// Sites that accept any special still choke on some, so use the harmless ones when the pool has any.
function preferSafe(pool: string): string {
  return intersect(pool, SAFE_SPECIALS + ALNUM) || pool;
}

function longestRun(chars: string[]): number {
  let longest = 0;
  let run = 0;
  chars.forEach((c, i) => {
    run = c === chars[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  });
  return longest;
}
