import { generatePassword, PasswordRulesError, satisfies } from "./password-generator";
import { parsePasswordRules, type PasswordFieldFacts, type PasswordRules } from "./password-rules";

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";
const set = (chars: string) => [...new Set(chars)].sort().join("");
const rules = (partial: Partial<PasswordRules>): PasswordRules => ({
  minLength: 0,
  maxLength: null,
  required: [],
  allowed: null,
  pattern: null,
  ...partial,
});

describe("parsePasswordRules: Apple's passwordrules attribute", () => {
  it("reads lengths, single classes, unions, custom sets and max-consecutive", () => {
    const parsed = parsePasswordRules({
      passwordrules: `minlength: 8; maxlength: 64; required: lower; required: upper, digit; required: [-().&@?'#,/"+]; allowed: [_]; max-consecutive: 3`,
    });
    expect(parsed).toEqual({
      minLength: 8,
      maxLength: 64,
      required: ["lower", { chars: set(UPPER + DIGIT) }, { chars: set(`-().&@?'#,/"+`) }],
      allowed: set(LOWER + UPPER + DIGIT + `-().&@?'#,/"+_`),
      pattern: null,
      maxConsecutive: 3,
    });
  });

  it("takes ']' at the end of a set only when doubled, and '-' only at its start", () => {
    expect(parsePasswordRules({ passwordrules: "required: [ab]]" }).required).toEqual([{ chars: "]ab" }]);
    expect(parsePasswordRules({ passwordrules: "required: [a-c]" }).required).toEqual([{ chars: "ac" }]);
    expect(parsePasswordRules({ passwordrules: "required: [-ac]; required: [;:]" }).required).toEqual([
      { chars: "-ac" },
      { chars: ":;" },
    ]);
  });

  it("derives the alphabet from required and allowed rules together", () => {
    expect(parsePasswordRules({ passwordrules: "required: upper; required: digit" })).toEqual(
      rules({ required: ["upper", "digit"], allowed: set(UPPER + DIGIT) }),
    );
    expect(parsePasswordRules({ passwordrules: "allowed: lower, digit; required: [!]" }).allowed).toBe(
      set(LOWER + DIGIT + "!"),
    );
  });

  it("names a set that is exactly one class, and treats ascii-printable and unicode as no restriction", () => {
    expect(parsePasswordRules({ passwordrules: `required: [${LOWER}]` })).toEqual(
      rules({ required: ["lower"], allowed: LOWER }),
    );
    expect(parsePasswordRules({ passwordrules: "minlength: 10; allowed: ascii-printable" })).toEqual(
      rules({ minLength: 10 }),
    );
    expect(parsePasswordRules({ passwordrules: "required: digit; allowed: unicode" })).toEqual(
      rules({ required: ["digit"] }),
    );
    expect(parsePasswordRules({ passwordrules: "required: unicode, digit; required: special" })).toEqual(
      rules({ required: ["special"] }),
    );
  });

  it("keeps the strictest of repeated rules and skips what it cannot read", () => {
    expect(
      parsePasswordRules({
        passwordrules:
          "minlength: 8; minlength: 10; maxlength: 30; maxlength: 20; max-consecutive: 3; max-consecutive: 2",
      }),
    ).toEqual(rules({ minLength: 10, maxLength: 20, maxConsecutive: 2 }));
    expect(parsePasswordRules({ passwordrules: "minlength: x; bogus: 3; maxlength: 20; required: nonsense" })).toEqual(
      rules({ maxLength: 20 }),
    );
  });
});

describe("parsePasswordRules: visible hints", () => {
  const hint = (text: string) => parsePasswordRules({ hints: [text] });

  it.each<[string, Partial<PasswordRules>]>([
    ["At least 12 characters", { minLength: 12 }],
    ["Use a minimum of 8 characters.", { minLength: 8 }],
    ["8 or more characters", { minLength: 8 }],
    ["Must be between 8 and 64 characters", { minLength: 8, maxLength: 64 }],
    ["8–64 characters", { minLength: 8, maxLength: 64 }],
    ["8-64 characters", { minLength: 8, maxLength: 64 }],
    ["12 to 16 characters", { minLength: 12, maxLength: 16 }],
    ["No more than 20 characters", { maxLength: 20 }],
    ["Passwords can be at most 20.", { maxLength: 20 }],
    ["Mindestens 10 Zeichen", { minLength: 10 }],
    ["is too short (minimum is 8 characters)", { minLength: 8 }],
    ["is too long (maximum is 72 characters)", { maxLength: 72 }],
    ["Include an uppercase letter", { required: ["upper"] }],
    ["Include a capital letter", { required: ["upper"] }],
    ["Include a lowercase letter", { required: ["lower"] }],
    ["Add a number", { required: ["digit"] }],
    ["Add a digit", { required: ["digit"] }],
    ["Use a special character", { required: ["special"] }],
    ["Use a symbol", { required: ["special"] }],
    ["Include punctuation", { required: ["special"] }],
    ["No spaces", {}],
    ["Use letters", {}],
    ["Include one of ! # $ %", { required: [{ chars: "!#$%" }], allowed: set(LOWER + UPPER + DIGIT + "!#$%") }],
    [
      "Use letters, digits and ! # $ %",
      { required: ["digit", { chars: "!#$%" }], allowed: set(LOWER + UPPER + DIGIT + "!#$%") },
    ],
    [
      "Use at least 14 characters with an uppercase letter, a number and a special character.",
      { minLength: 14, required: ["upper", "digit", "special"] },
    ],
    [
      "Password must be 12 to 16 characters of letters, digits and ! # $ %, with a lowercase letter, an uppercase letter, a digit and a symbol.",
      {
        minLength: 12,
        maxLength: 16,
        required: ["lower", "upper", "digit", { chars: "!#$%" }],
        allowed: set(LOWER + UPPER + DIGIT + "!#$%"),
      },
    ],
  ])("%s", (text, expected) => {
    expect(hint(text)).toEqual(rules(expected));
  });

  it("ignores numbers that are not lengths", () => {
    expect(hint("Include at least 1 number and 2 symbols")).toEqual(rules({ required: ["digit", "special"] }));
    expect(hint("Changed passwords take effect within 24 hours")).toEqual(rules({}));
  });

  it("reads a refusal as a forbidden class, not a required one", () => {
    expect(hint("Special characters are not allowed.")).toEqual(rules({ allowed: set(LOWER + UPPER + DIGIT) }));
    expect(hint("Must not contain spaces or symbols")).toEqual(rules({ allowed: set(LOWER + UPPER + DIGIT) }));
  });

  it("reads a limit on repeated characters", () => {
    expect(hint("No more than 2 identical characters in a row")).toEqual(rules({ maxConsecutive: 2 }));
  });
});

describe("parsePasswordRules: merging sources", () => {
  it("keeps the strictest min and max, every requirement, and only characters all sources allow", () => {
    const facts: PasswordFieldFacts = {
      minLength: 8,
      maxLength: 40,
      passwordrules: "maxlength: 32; required: digit; allowed: lower, upper, [!#$%&]",
      hints: ["At least 12 characters", "Include one of ! # $ %", "No more than 30 characters"],
    };
    expect(parsePasswordRules(facts)).toEqual(
      rules({
        minLength: 12,
        maxLength: 30,
        required: ["digit", { chars: "!#$%" }],
        allowed: set(LOWER + UPPER + DIGIT + "!#$%"),
      }),
    );
  });

  it("ignores absent or meaningless attribute values", () => {
    expect(parsePasswordRules({ minLength: -1, maxLength: 0, pattern: "" })).toEqual(rules({}));
    expect(parsePasswordRules({ minLength: 0, maxLength: 16 })).toEqual(rules({ maxLength: 16 }));
  });

  it("keeps a valid pattern and drops one that no flag compiles", () => {
    expect(parsePasswordRules({ pattern: "[a-z]+" }).pattern).toBe("[a-z]+");
    expect(parsePasswordRules({ pattern: "(" }).pattern).toBeNull();
  });
});

describe("satisfies", () => {
  it("checks lengths, requirements, the alphabet, the pattern and repeats", () => {
    const r = rules({
      minLength: 4,
      maxLength: 6,
      required: ["digit", { chars: "!#" }],
      allowed: set(LOWER + DIGIT + "!#"),
      maxConsecutive: 2,
    });
    expect(satisfies(r, "ab1!")).toBe(true);
    expect(satisfies(r, "a1!")).toBe(false);
    expect(satisfies(r, "abcd1!x")).toBe(false);
    expect(satisfies(r, "abcd!")).toBe(false);
    expect(satisfies(r, "abc1$")).toBe(false);
    expect(satisfies(r, "aB1!")).toBe(false);
    expect(satisfies(r, "aaa1!")).toBe(false);
    expect(satisfies(rules({ pattern: "[a-z]+" }), "abc")).toBe(true);
    expect(satisfies(rules({ pattern: "[a-z]+" }), "abc1")).toBe(false);
  });

  it("compiles the pattern with 'v', falling back to 'u'", () => {
    expect(satisfies(rules({ pattern: String.raw`[\p{L}--[a-z]]+` }), "ABC")).toBe(true);
    expect(satisfies(rules({ pattern: String.raw`[\p{L}--[a-z]]+` }), "ABc")).toBe(false);
    // '(' unescaped in a class is an error under 'v' only.
    expect(satisfies(rules({ pattern: "[a(]+" }), "a(a")).toBe(true);
    expect(satisfies(rules({ pattern: "[a(]+" }), "ab")).toBe(false);
  });

  it("treats unknown alphabets as letters, digits and ASCII specials", () => {
    expect(satisfies(rules({}), `aZ9!"\\~`)).toBe(true);
    expect(satisfies(rules({}), "a b")).toBe(false);
    expect(satisfies(rules({}), "héllo")).toBe(false);
  });
});

describe("generatePassword", () => {
  const DEFAULT_ALPHABET = LOWER + UPPER + DIGIT + "!#$%&*+-=?@_";

  it("makes 20 characters of lower, upper, digit and a safe special by default", () => {
    for (let i = 0; i < 200; i++) {
      const password = generatePassword(parsePasswordRules({}));
      expect(password).toHaveLength(20);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[!#$%&*+\-=?@_]/);
      expect([...password].filter((c) => !DEFAULT_ALPHABET.includes(c))).toEqual([]);
    }
  });

  it.each<[string, PasswordFieldFacts]>([
    [
      "Apple rules with unions and custom sets",
      {
        passwordrules: `minlength: 8; maxlength: 12; required: lower; required: upper, digit; required: [-().&@?'#,/"+]; allowed: [_]; max-consecutive: 2`,
      },
    ],
    ["only digits, no repeats", { passwordrules: "required: digit; max-consecutive: 1; minlength: 6; maxlength: 6" }],
    ["symbols that are all unsafe", { passwordrules: `required: lower; required: ["'<>]` }],
    [
      "the letters-digits-and-symbols hint",
      {
        hints: [
          "Password must be 12 to 16 characters of letters, digits and ! # $ %, with a lowercase letter, an uppercase letter, a digit and a symbol.",
        ],
      },
    ],
    ["a long minimum", { minLength: 80 }],
    ["a short maximum", { maxLength: 8 }],
    ["no specials allowed", { hints: ["At least 10 characters. Special characters are not allowed."] }],
    ["a lookahead pattern", { pattern: String.raw`(?=.*[A-Z])(?=.*\d).{10,12}` }],
    ["an alphanumeric pattern", { pattern: "[A-Za-z0-9]{8,16}", minLength: 8 }],
  ])("always satisfies %s over 200 runs", (_name, facts) => {
    const parsed = parsePasswordRules(facts);
    const alphabet = parsed.allowed ?? DEFAULT_ALPHABET + `"'()*,./:;<>[\\]^\`{|}~`;
    for (let i = 0; i < 200; i++) {
      const password = generatePassword(parsed);
      expect(satisfies(parsed, password)).toBe(true);
      expect([...password].filter((c) => !alphabet.includes(c))).toEqual([]);
    }
  });

  it("honours a pattern's length and lookaheads", () => {
    const parsed = parsePasswordRules({ pattern: String.raw`(?=.*[A-Z])(?=.*\d).{10,12}` });
    for (let i = 0; i < 200; i++) {
      const password = generatePassword(parsed);
      expect(password.length).toBeGreaterThanOrEqual(10);
      expect(password.length).toBeLessThanOrEqual(12);
      expect(password).toMatch(/^(?=.*[A-Z])(?=.*\d).{10,12}$/);
    }
  });

  it("keeps the length within the bounds, preferring 20", () => {
    expect(generatePassword(rules({ minLength: 30 }))).toHaveLength(30);
    expect(generatePassword(rules({ maxLength: 12 }))).toHaveLength(12);
    expect(generatePassword(rules({ minLength: 8, maxLength: 64 }))).toHaveLength(20);
  });

  it("throws PasswordRulesError when no password can satisfy the rules", () => {
    expect(() => generatePassword(rules({ maxLength: 2, required: ["lower", "upper", "digit", "special"] }))).toThrow(
      PasswordRulesError,
    );
    expect(() => generatePassword(rules({ minLength: 10, maxLength: 8 }))).toThrow(PasswordRulesError);
    expect(() => generatePassword(rules({ required: ["special"], allowed: set(LOWER + DIGIT) }))).toThrow(
      PasswordRulesError,
    );
    expect(() => generatePassword(rules({ pattern: "[a-z]{4}", required: ["digit"] }))).toThrow(PasswordRulesError);
  });
});
