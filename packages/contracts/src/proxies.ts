/**
 * An organization's egress proxies: a login may leave through one (`proxy`) or a pool of them by label
 * (`proxyPool`); a credential keeps the proxy it first signed in through. The URL's credentials are stored
 * encrypted and never shown again.
 */
import { Type, type Static } from "@sinclair/typebox";
import { nullable } from "./nullable";
import { stringEnum } from "./string-enum";

/** The regions a proxy may say it leaves from; a credential's browser (locale, time zone) follows it. */
export const PROXY_REGIONS = ["us", "eu", "uk", "ca", "au", "jp", "br", "in"] as const;
export type ProxyRegion = (typeof PROXY_REGIONS)[number];

/** An organization has few proxies; this keeps one from storing without bound. */
export const MAX_PROXIES_PER_ORG = 200;

export const proxySchema = Type.Object({
  id: Type.String({ pattern: "^prx_" }),
  address: Type.String({
    description: "`scheme://host:port`: the URL without its credentials (never shown again).",
  }),
  label: nullable(Type.String(), {
    description: "Its pool: `proxyPool` on a login names the proxies of one label.",
  }),
  region: nullable(stringEnum(PROXY_REGIONS), {
    description:
      "Where it leaves from: the browser of a credential that first signs in through it is one of that region (locale, time zone).",
  }),
  createdAt: Type.String({ format: "date-time" }),
});
export type ProxyResource = Static<typeof proxySchema>;

export const proxyLabelSchema = Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9][A-Za-z0-9._:-]*$" });
export const proxyIdSchema = Type.String({ pattern: "^prx_[0-9A-Za-z]{22}$" });

export const proxyRequestSchema = Type.Object(
  {
    // `http://user:pass@host:port` or `socks5://user:pass@host:port`.
    url: Type.String({ minLength: 1, maxLength: 2048, pattern: "^([hH][tT][tT][pP]|[sS][oO][cC][kK][sS]5)://" }),
    // The pool it belongs to (`proxyPool` names it).
    label: Type.Optional(proxyLabelSchema),
    region: Type.Optional(stringEnum(PROXY_REGIONS)),
  },
  { $id: "ProxyRequest", additionalProperties: false },
);
export type ProxyRequest = Static<typeof proxyRequestSchema>;
