// oidc-provider (the OAuth fixtures' identity provider) warns on every load that Node.js 20 is not a runtime
// it supports; the fixtures run on it as they must, and that warning with its stack, in every test file that
// loads the fixture sites, buried real failures in the log. Only that one warning is dropped.
const warn = console.warn;
console.warn = (...args) => {
  if (typeof args[0] === "string" && args[0].startsWith("oidc-provider WARNING: Unsupported runtime")) return;
  warn.apply(console, args);
};
