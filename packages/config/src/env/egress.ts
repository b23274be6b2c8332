import { text, type EnvVars } from "./env-var";

/** Where the browser and the service may connect: target ranges, the fixtures' host map, proxies. */
export const EGRESS_VARS = {
  TARGET_ALLOW_RANGES: {
    type: "string",
    default: "",
    description: text(
      "Non-public address ranges targets may resolve to, by ipaddr.js name (`loopback`, `private`,",
      "`linkLocal`, `uniqueLocal`, `carrierGradeNat`, `unspecified`). Development and tests use `loopback`;",
      "production must leave it empty.",
    ),
  },
  EGRESS_HOST_MAP: {
    type: "string",
    default: "",
    description: text(
      "Tests and development only: `name=address:port` entries, comma separated (e.g.",
      "`accounts.google.com=127.0.0.1:41234,github.com=127.0.0.1:41235`). The browser's egress reaches a",
      "mapped name at its loopback address instead of DNS, its ports 80 and 443 at the given port (Host",
      "header kept; the fixtures speak HTTP and TLS there), so fixture pages answer under real host names.",
      "Targets must be loopback, `TARGET_ALLOW_RANGES` must include `loopback`, and production refuses the",
      "variable. `npm start` and the end-to-end stack set it for their Google-like and GitHub-like",
      "fixtures.",
    ),
  },
  EGRESS_PROXY_ALLOW: {
    type: "string",
    default: "",
    description: text(
      "Where organizations' egress proxies (`POST /v1/proxies`) may be, comma separated: host names",
      "(`proxy.example.net`, or `*.example.net` for its subdomains), IP addresses, and IPv4 or IPv6 ranges",
      "in CIDR form (`10.20.0.0/16`). Proxies often live in private ranges, which the target rules refuse;",
      "this list is the operator's say on them. Empty: no proxy may be added.",
    ),
  },
  BROWSER_TRUSTED_SPKI: {
    type: "string",
    default: "",
    description: text(
      "Tests and development only: base64 SHA-256 hashes of certificate keys (SPKI), comma separated, that",
      "Chromium accepts although self-signed (`--ignore-certificate-errors-spki-list`). The",
      "`EGRESS_HOST_MAP` fixtures need it: Chromium's HSTS preload list sends accounts.google.com and",
      "github.com to https. Production refuses it.",
    ),
  },
} as const satisfies EnvVars;
