import { randomInt } from "node:crypto";

export type CharClass = "lower" | "upper" | "digit" | "special";
/** A named class, or an explicit set of characters of which at least one must appear. */
export type Requirement = CharClass | { chars: string };

export interface PasswordRules {
  minLength: number; // 0 when unknown
  maxLength: number | null; // null when unknown
  /** Character classes that must each appear at least once: a named class or an explicit set of characters. */
  required: Requirement[];
  /** Characters allowed at all; null = letters, digits and common ASCII specials. */
  allowed: string | null;
  /** The field's HTML `pattern` attribute (anchored as ^(?:...)$, 'v' flag, else 'u') or null. */
  pattern: string | null;
  /** No more than this many identical characters in a row. */
  maxConsecutive?: number;
}

/** What the page says about its password field, as read in the browser. */
export interface PasswordFieldFacts {
  passwordrules?: string | null; // the `passwordrules` attribute (Apple's Password Rules format)
  minLength?: number | null; // input.minLength when >= 0 and the attribute is present
  maxLength?: number | null; // input.maxLength when the attribute is present (> 0)
  pattern?: string | null;
  /** Visible text near the field: its label, aria-describedby text, hint paragraphs, and after a refused submit the site's error message. */
  hints?: string[];
}

export class PasswordRulesError extends Error {
  override name = "PasswordRulesError";
}

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";
const ALNUM = charset(LOWER + UPPER + DIGIT);
// Printable ASCII without space: what "allowed: null" means; sites rarely accept a space.
const UNIVERSE = charset(Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).join(""));
const SPECIAL = [...UNIVERSE].filter((c) => !ALNUM.includes(c)).join("");
// Quotes, backslash, spaces and < > break naive sites, so generation prefers these.
const SAFE_SPECIALS = charset("!#$%&*+-=?@_");
const CLASS_CHARS: Record<CharClass, string> = { lower: LOWER, upper: UPPER, digit: DIGIT, special: SPECIAL };
const CLASSES = Object.keys(CLASS_CHARS) as CharClass[];
const PREFERRED_LENGTH = 20;
const DEFAULT_MAX_LENGTH = 64;
const MAX_TRIES = 200;

const EMPTY: PasswordRules = { minLength: 0, maxLength: null, required: [], allowed: null, pattern: null };

export function parsePasswordRules(facts: PasswordFieldFacts): PasswordRules {
  const sources = [rulesFromAttributes(facts), rulesFromAppleFormat(facts.passwordrules ?? ""), ...(facts.hints ?? []).map(rulesFromHint)];
  return sources.reduce(mergeRules, EMPTY);
}

/** A random password that satisfies the rules; throws PasswordRulesError when none can. */
export function generatePassword(rules: PasswordRules): string {
  const longest = rules.maxLength ?? Math.max(DEFAULT_MAX_LENGTH, rules.minLength);
  if (rules.minLength > longest) throw new PasswordRulesError(`minimum length ${rules.minLength} exceeds maximum length ${longest}`);
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

// --- sources ---

function rulesFromAttributes(facts: PasswordFieldFacts): PasswordRules {
  return {
    ...EMPTY,
    minLength: facts.minLength != null && facts.minLength >= 0 ? facts.minLength : 0,
    maxLength: facts.maxLength != null && facts.maxLength > 0 ? facts.maxLength : null,
    // Browsers ignore a pattern that does not compile, so the site cannot be enforcing it.
    pattern: facts.pattern && compilePattern(facts.pattern) ? facts.pattern : null,
  };
}

// A property name, then its value: custom classes (which may hold ';') or anything up to the next ';'.
const APPLE_PROPERTY = /([a-z-]+)\s*:((?:\[[^\]]*\]?\]|[^;[])*)/gi;
// A custom class ends at the first ']', unless a second ']' follows: "[ab]]" is {a, b, ]}.
const APPLE_VALUE = /\[([^\]]*\]?)\]|([a-z-]+)/gi;

/** Apple's Password Rules format (https://developer.apple.com/password-rules/). */
function rulesFromAppleFormat(text: string): PasswordRules {
  let rules = EMPTY;
  const alphabet: Array<string | null> = [];
  for (const [, name, value = ""] of text.matchAll(APPLE_PROPERTY)) {
    const number = /^\s*\d+\s*$/.test(value) ? Number(value) : null;
    switch (name!.toLowerCase()) {
      case "minlength":
        if (number !== null) rules = mergeRules(rules, { ...EMPTY, minLength: number });
        break;
      case "maxlength":
        if (number) rules = mergeRules(rules, { ...EMPTY, maxLength: number });
        break;
      case "max-consecutive":
        if (number) rules = mergeRules(rules, { ...EMPTY, maxConsecutive: number });
        break;
      case "required": {
        const chars = appleClassUnion(value);
        if (chars !== "") alphabet.push(chars);
        // A union with "unicode" is met by any character at all.
        if (chars) rules = mergeRules(rules, { ...EMPTY, required: [requirement(chars)] });
        break;
      }
      case "allowed": {
        const chars = appleClassUnion(value);
        if (chars !== "") alphabet.push(chars);
        break;
      }
    }
  }
  if (alphabet.length === 0 || alphabet.includes(null)) return rules;
  return { ...rules, allowed: normalizeAllowed(charset(alphabet.join(""))) };
}

/** The characters of a comma-separated list of classes; null when it includes "unicode" (anything goes). */
function appleClassUnion(value: string): string | null {
  let chars = "";
  for (const [, custom, named] of value.matchAll(APPLE_VALUE)) {
    const name = named?.toLowerCase();
    if (name === "unicode") return null;
    chars += custom !== undefined ? customClassChars(custom) : name === "ascii-printable" ? UNIVERSE : isCharClass(name) ? CLASS_CHARS[name] : "";
  }
  return charset(chars);
}

function isCharClass(name: string | undefined): name is CharClass {
  return CLASSES.includes(name as CharClass);
}

// Per the spec a '-' counts only as the first character; non-printable characters are ignored.
function customClassChars(body: string): string {
  return [...body].filter((c, i) => c >= " " && c <= "~" && (c !== "-" || i === 0)).join("");
}

const UNIT = String.raw`(?:characters?|chars?|zeichen)(?!\p{L})`;
const UNIT_OR_END = String.raw`(?=\s*${UNIT}|\s*(?:[.,;!)]|$))`;
const MIN_LENGTH = [
  new RegExp(String.raw`(?<!\p{L})(?:at\s+least|minimum(?:\s+(?:of|is))?|min\.?|mindestens|minimal)\s+(\d+)${UNIT_OR_END}`, "gu"),
  new RegExp(String.raw`(?<!\p{L})(?:minimum|min\.?)\s+length\s+(?:is\s+|of\s+)?(\d+)`, "gu"),
  new RegExp(String.raw`(\d+)\s*(?:\+|or\s+more)\s*${UNIT}`, "gu"),
  new RegExp(String.raw`(\d+)\s*${UNIT}\s+(?:minimum|or\s+more|or\s+longer)`, "gu"),
];
const MAX_LENGTH = [
  new RegExp(String.raw`(?<!\p{L})(?:no\s+more\s+than|not\s+more\s+than|at\s+most|maximum(?:\s+(?:of|is))?|max\.?|up\s+to|höchstens|maximal)\s+(\d+)${UNIT_OR_END}`, "gu"),
  new RegExp(String.raw`(?<!\p{L})(?:maximum|max\.?)\s+length\s+(?:is\s+|of\s+)?(\d+)`, "gu"),
  new RegExp(String.raw`(\d+)\s*${UNIT}\s+(?:maximum|max\.?|or\s+(?:less|fewer|shorter))`, "gu"),
];
const LENGTH_RANGE = new RegExp(String.raw`(\d+)\s*(?:-|to|and|bis|und)\s*(\d+)\s*${UNIT}`, "gu");
const MAX_CONSECUTIVE = /(?:no\s+more\s+than|at\s+most|max(?:imum)?(?:\s+of)?)\s+(\d+)\s+(?:identical|repeated|repeating|consecutive|same)\s+characters?/gu;

// Each class's words, ending after an optional noun so a following "are not allowed" can be seen.
const CLASS_MENTIONS: Array<[CharClass[], RegExp]> = [
  [["upper", "lower"], /(?<!\p{L})mixed\s*-?\s*case(?:\s+(?:letters?|characters?))?(?!\p{L})/gu],
  [["upper"], /(?<!\p{L})(?:upper(?:\s*-?\s*case)?|capitals?|groß(?:buchstaben?|-))(?:\s+(?:letters?|characters?))?(?!\p{L})/gu],
  [["lower"], /(?<!\p{L})(?:lower(?:\s*-?\s*case)?|klein(?:buchstaben?|-))(?:\s+(?:letters?|characters?))?(?!\p{L})/gu],
  [["digit"], /(?<!\p{L})(?:digits?|numbers?(?!\s+of(?!\p{L}))|numerals?|numeric|ziffern?|zahlen?)(?:\s+characters?)?(?!\p{L})/gu],
  [["special"], /(?<!\p{L})(?:special(?:\s*-?\s*(?:characters?|chars?|symbols?))?|symbols?|punctuation(?:\s+marks?)?|non-?\s*alphanumeric(?:\s+characters?)?|sonderzeichen)(?!\p{L})/gu],
];
// "no symbols", "must not contain spaces or symbols": the negation may head a short list.
const NEGATED_BEFORE = /(?:(?<!\p{L})(?:no|without|keine?|ohne)|(?:not|cannot|can't)\s+(?:contain|include|use|have))\s+(?:any\s+)?(?:[\p{L}-]+(?:\s+[\p{L}-]+)?\s*(?:,|\s(?:or|nor|oder))\s*)*$/u;
const NEGATED_AFTER = /^\s*(?:(?:are|is)(?:\s+not|n't)\s+(?:allowed|permitted|supported|accepted)|(?:are|is)\s+(?:forbidden|prohibited)|(?:sind\s+)?nicht\s+(?:erlaubt|zulässig))/u;
// Symbols listed after "one of", "letters, digits and", "special characters:" are the only ones accepted.
const LISTED_SYMBOLS = /(?:one\s+of|any\s+of|following|(?:digits?|numbers?)\s*,?\s+(?:and|or)|(?:special\s+characters?|symbols?|sonderzeichen)\s*[:(])\s*:?\s*((?:[!-\/:-@[-`{-~]+(?:\s*,\s*|\s+(?:or|and)\s+|\s+)?)+)/u;

/** What one piece of visible text says; numbers count only next to length words. */
function rulesFromHint(hint: string): PasswordRules {
  const text = hint.toLowerCase().replace(/[\u2010-\u2015\u2212]/g, "-");
  const listed = listedSymbols(text);
  const { mentioned, forbidden } = mentionedClasses(text);
  const required: Requirement[] = CLASSES.filter((c) => mentioned.has(c) && !(listed && c === "special"));
  if (listed) required.push({ chars: listed });
  let allowed = listed ? charset(ALNUM + listed) : null;
  for (const c of forbidden) allowed = intersect(allowed ?? UNIVERSE, [...UNIVERSE].filter((ch) => !CLASS_CHARS[c].includes(ch)).join(""));
  const ranges = [...text.matchAll(LENGTH_RANGE)];
  const maxConsecutive = smallest(numbersFrom(text, [MAX_CONSECUTIVE]));
  return {
    minLength: Math.max(0, ...numbersFrom(text, MIN_LENGTH), ...ranges.map((m) => Number(m[1]))),
    maxLength: smallest([...numbersFrom(text, MAX_LENGTH), ...ranges.map((m) => Number(m[2]))]) ?? null,
    required,
    allowed: allowed === null ? null : normalizeAllowed(allowed),
    pattern: null,
    ...(maxConsecutive === undefined ? {} : { maxConsecutive }),
  };
}

function numbersFrom(text: string, patterns: RegExp[]): number[] {
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => Number(m[1])));
}

function mentionedClasses(text: string): { mentioned: Set<CharClass>; forbidden: Set<CharClass> } {
  const mentioned = new Set<CharClass>();
  const forbidden = new Set<CharClass>();
  for (const [classes, words] of CLASS_MENTIONS) {
    for (const m of text.matchAll(words)) {
      // Only the last few words before a mention can negate it; this also bounds the regex's work.
      const negated = NEGATED_BEFORE.test(text.slice(Math.max(0, m.index - 60), m.index)) || NEGATED_AFTER.test(text.slice(m.index + m[0].length));
      for (const c of classes) (negated ? forbidden : mentioned).add(c);
    }
  }
  return { mentioned, forbidden };
}

function listedSymbols(text: string): string | null {
  const list = LISTED_SYMBOLS.exec(text)?.[1];
  if (list === undefined) return null;
  // Separators and sentence punctuation cling to the symbols they follow: "! # $ %," or "(!@#)."
  const tokens = list.split(/\s+/).filter((t) => t !== "" && t !== "or" && t !== "and");
  const chars = charset(tokens.map((t) => (t.length > 1 ? t.replace(/^\(|[,.;:)]+$/g, "") : t)).join(""));
  // A single symbol is more likely punctuation after "following." than a list.
  return chars.length >= 2 ? chars : null;
}

// --- merging ---

/** The strictest of both: larger min, smaller max, all requirements, only characters both allow. */
function mergeRules(a: PasswordRules, b: PasswordRules): PasswordRules {
  const maxConsecutive = smallest([a.maxConsecutive, b.maxConsecutive].filter((n) => n !== undefined));
  const required = [...a.required, ...b.required].filter((r, i, all) => all.findIndex((o) => requirementKey(o) === requirementKey(r)) === i);
  return {
    minLength: Math.max(a.minLength, b.minLength),
    maxLength: smallest([a.maxLength, b.maxLength].filter((n) => n !== null)) ?? null,
    required,
    allowed: a.allowed === null ? b.allowed : b.allowed === null ? a.allowed : intersect(a.allowed, b.allowed),
    pattern: a.pattern ?? b.pattern,
    ...(maxConsecutive === undefined ? {} : { maxConsecutive }),
  };
}

function requirementKey(r: Requirement): string {
  return typeof r === "string" ? r : `[${r.chars}]`;
}

function requirement(chars: string): Requirement {
  return CLASSES.find((c) => CLASS_CHARS[c] === chars) ?? { chars };
}

function normalizeAllowed(chars: string): string | null {
  return chars === UNIVERSE ? null : chars;
}

// --- generation ---

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
  const lengths = Array.from({ length: longest - shortest + 1 }, (_, i) => shortest + i).sort((x, y) => Math.abs(x - preferred) - Math.abs(y - preferred) || x - y);
  return lengths.flatMap((length) => [{ length, ...full }, { length, ...plain }]);
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

// --- helpers ---

/** HTML matches `pattern` against the whole value with the 'v' flag; older engines only know 'u'. */
function compilePattern(pattern: string): RegExp | null {
  for (const flags of ["v", "u"]) {
    try {
      return new RegExp(`^(?:${pattern})$`, flags);
    } catch {
      // Try the next flag; a pattern neither accepts is invalid.
    }
  }
  return null;
}

function charsOf(r: Requirement): string {
  return typeof r === "string" ? CLASS_CHARS[r] : r.chars;
}

/** Unique characters, sorted, so equal sets compare equal as strings. */
function charset(chars: string): string {
  return [...new Set(chars)].sort().join("");
}

function intersect(a: string, b: string): string {
  return charset([...a].filter((c) => b.includes(c)).join(""));
}

function smallest(numbers: number[]): number | undefined {
  return numbers.length === 0 ? undefined : Math.min(...numbers);
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
