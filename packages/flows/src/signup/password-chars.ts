// The characters passwords are made of, as sets: strings of unique characters, sorted.

export type CharClass = "lower" | "upper" | "digit" | "special";
/** A named class, or an explicit set of characters of which at least one must appear. */
export type Requirement = CharClass | { chars: string };

export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const DIGIT = "0123456789";
export const ALNUM = charset(LOWER + UPPER + DIGIT);
// Printable ASCII without space: what "allowed: null" means; sites rarely accept a space.
export const UNIVERSE = charset(Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).join(""));
export const SPECIAL = [...UNIVERSE].filter((c) => !ALNUM.includes(c)).join("");
// Quotes, backslash, spaces and < > break naive sites, so generation prefers these.
export const SAFE_SPECIALS = charset("!#$%&*+-=?@_");
export const CLASS_CHARS: Record<CharClass, string> = { lower: LOWER, upper: UPPER, digit: DIGIT, special: SPECIAL };
export const CLASSES = Object.keys(CLASS_CHARS) as CharClass[];

/** HTML matches `pattern` against the whole value with the 'v' flag; older engines only know 'u'. */
export function compilePattern(pattern: string): RegExp | null {
  for (const flags of ["v", "u"]) {
    try {
      return new RegExp(`^(?:${pattern})$`, flags);
    } catch {
      // Try the next flag; a pattern neither accepts is invalid.
    }
  }
  return null;
}

export function charsOf(r: Requirement): string {
  return typeof r === "string" ? CLASS_CHARS[r] : r.chars;
}

/** Unique characters, sorted, so equal sets compare equal as strings. */
export function charset(chars: string): string {
  return [...new Set(chars)].sort().join("");
}

export function intersect(a: string, b: string): string {
  return charset([...a].filter((c) => b.includes(c)).join(""));
}
