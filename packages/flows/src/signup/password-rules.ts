import {
  ALNUM,
  CLASS_CHARS,
  CLASSES,
  type CharClass,
  charset,
  compilePattern,
  intersect,
  type Requirement,
  UNIVERSE,
} from "./password-chars";

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

const EMPTY: PasswordRules = { minLength: 0, maxLength: null, required: [], allowed: null, pattern: null };

/** The strictest rules the page states: its field's attributes, its `passwordrules`, and the words near it. */
export function parsePasswordRules(facts: PasswordFieldFacts): PasswordRules {
  const sources = [
    rulesFromAttributes(facts),
    rulesFromAppleFormat(facts.passwordrules ?? ""),
    ...(facts.hints ?? []).map(rulesFromHint),
  ];
  return sources.reduce(mergeRules, EMPTY);
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
    chars +=
      custom !== undefined
        ? customClassChars(custom)
        : name === "ascii-printable"
          ? UNIVERSE
          : isCharClass(name)
            ? CLASS_CHARS[name]
            : "";
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
  new RegExp(
    String.raw`(?<!\p{L})(?:at\s+least|minimum(?:\s+(?:of|is))?|min\.?|mindestens|minimal)\s+(\d+)${UNIT_OR_END}`,
    "gu",
  ),
  new RegExp(String.raw`(?<!\p{L})(?:minimum|min\.?)\s+length\s+(?:is\s+|of\s+)?(\d+)`, "gu"),
  new RegExp(String.raw`(\d+)\s*(?:\+|or\s+more)\s*${UNIT}`, "gu"),
  new RegExp(String.raw`(\d+)\s*${UNIT}\s+(?:minimum|or\s+more|or\s+longer)`, "gu"),
];
const MAX_LENGTH = [
  new RegExp(
    String.raw`(?<!\p{L})(?:no\s+more\s+than|not\s+more\s+than|at\s+most|maximum(?:\s+(?:of|is))?|max\.?|up\s+to|höchstens|maximal)\s+(\d+)${UNIT_OR_END}`,
    "gu",
  ),
  new RegExp(String.raw`(?<!\p{L})(?:maximum|max\.?)\s+length\s+(?:is\s+|of\s+)?(\d+)`, "gu"),
  new RegExp(String.raw`(\d+)\s*${UNIT}\s+(?:maximum|max\.?|or\s+(?:less|fewer|shorter))`, "gu"),
];
const LENGTH_RANGE = new RegExp(String.raw`(\d+)\s*(?:-|to|and|bis|und)\s*(\d+)\s*${UNIT}`, "gu");
const MAX_CONSECUTIVE =
  /(?:no\s+more\s+than|at\s+most|max(?:imum)?(?:\s+of)?)\s+(\d+)\s+(?:identical|repeated|repeating|consecutive|same)\s+characters?/gu;

// Each class's words, ending after an optional noun so a following "are not allowed" can be seen.
const CLASS_MENTIONS: Array<[CharClass[], RegExp]> = [
  [["upper", "lower"], /(?<!\p{L})mixed\s*-?\s*case(?:\s+(?:letters?|characters?))?(?!\p{L})/gu],
  [
    ["upper"],
    /(?<!\p{L})(?:upper(?:\s*-?\s*case)?|capitals?|groß(?:buchstaben?|-))(?:\s+(?:letters?|characters?))?(?!\p{L})/gu,
  ],
  [["lower"], /(?<!\p{L})(?:lower(?:\s*-?\s*case)?|klein(?:buchstaben?|-))(?:\s+(?:letters?|characters?))?(?!\p{L})/gu],
  [
    ["digit"],
    /(?<!\p{L})(?:digits?|numbers?(?!\s+of(?!\p{L}))|numerals?|numeric|ziffern?|zahlen?)(?:\s+characters?)?(?!\p{L})/gu,
  ],
  [
    ["special"],
    /(?<!\p{L})(?:special(?:\s*-?\s*(?:characters?|chars?|symbols?))?|symbols?|punctuation(?:\s+marks?)?|non-?\s*alphanumeric(?:\s+characters?)?|sonderzeichen)(?!\p{L})/gu,
  ],
];
// "no symbols", "must not contain spaces or symbols": the negation may head a short list.
const NEGATED_BEFORE =
  /(?:(?<!\p{L})(?:no|without|keine?|ohne)|(?:not|cannot|can't)\s+(?:contain|include|use|have))\s+(?:any\s+)?(?:[\p{L}-]+(?:\s+[\p{L}-]+)?\s*(?:,|\s(?:or|nor|oder))\s*)*$/u;
const NEGATED_AFTER =
  /^\s*(?:(?:are|is)(?:\s+not|n't)\s+(?:allowed|permitted|supported|accepted)|(?:are|is)\s+(?:forbidden|prohibited)|(?:sind\s+)?nicht\s+(?:erlaubt|zulässig))/u;
// Symbols listed after "one of", "letters, digits and", "special characters:" are the only ones accepted.
const LISTED_SYMBOLS =
  /(?:one\s+of|any\s+of|following|(?:digits?|numbers?)\s*,?\s+(?:and|or)|(?:special\s+characters?|symbols?|sonderzeichen)\s*[:(])\s*:?\s*((?:[!-/:-@[-`{-~]+(?:\s*,\s*|\s+(?:or|and)\s+|\s+)?)+)/u;

/** What one piece of visible text says; numbers count only next to length words. */
function rulesFromHint(hint: string): PasswordRules {
  const text = hint.toLowerCase().replace(/[\u2010-\u2015\u2212]/g, "-");
  const listed = listedSymbols(text);
  const { mentioned, forbidden } = mentionedClasses(text);
  const required: Requirement[] = CLASSES.filter((c) => mentioned.has(c) && !(listed && c === "special"));
  if (listed) required.push({ chars: listed });
  let allowed = listed ? charset(ALNUM + listed) : null;
  for (const c of forbidden)
    allowed = intersect(allowed ?? UNIVERSE, [...UNIVERSE].filter((ch) => !CLASS_CHARS[c].includes(ch)).join(""));
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
      const negated =
        NEGATED_BEFORE.test(text.slice(Math.max(0, m.index - 60), m.index)) ||
        NEGATED_AFTER.test(text.slice(m.index + m[0].length));
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
  const required = [...a.required, ...b.required].filter(
    (r, i, all) => all.findIndex((o) => requirementKey(o) === requirementKey(r)) === i,
  );
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

function smallest(numbers: number[]): number | undefined {
  return numbers.length === 0 ? undefined : Math.min(...numbers);
}
