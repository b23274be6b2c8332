// typescript-eslint's recommended rules (no type information: the whole tree lints in seconds), run by
// `npm test` through scripts/lint.sh. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".data/**",
      "**/generated/**",
      "coverage/**",
      "**/*.cjs",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `const { secret: _secret, ...rest } = x` drops a field on purpose; `_` marks what is left unused.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // A `let` a closure reads before its one assignment (a router's page, made before the challenge it draws),
      // or a destructuring whose other names are reassigned, stays a `let`.
      "prefer-const": ["error", { destructuring: "all", ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests reach into objects the product types keep closed (a job's raw row, a page's handle).
    files: ["**/*.test.ts", "**/test/**/*.ts", "**/testing/**/*.ts", "packages/devstack/src/e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
