import { Router } from "express";
import { compileValidator, MAX_PROXIES_PER_ORG, proxyRequestSchema, type ProxyResource } from "@authsvc/contracts";
import type { Database, ProxyRow } from "@authsvc/db";
import { proxyHostAllowed } from "@authsvc/egress";
import { ApiError } from "../http/api-error";

const validate = compileValidator(proxyRequestSchema);
const PROXY_ID = /^prx_[0-9A-Za-z]{22}$/;

const resource = (p: ProxyRow): ProxyResource => ({
  id: p.id,
  address: p.address,
  label: p.label,
  region: p.region as ProxyResource["region"],
  createdAt: p.createdAt.toISOString(),
});

/** A proxy URL's parts, or the field error that says what is wrong with it (never echoing its password). */
function readProxyUrl(raw: string): { url: string; address: string; host: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw ApiError.invalid([{ field: "/url", message: "is not a valid URL" }]);
  }
  const scheme = u.protocol.toLowerCase();
  if (scheme !== "http:" && scheme !== "socks5:")
    throw ApiError.invalid([{ field: "/url", message: "must be http://… or socks5://…" }]);
  if (!u.hostname || !u.port)
    throw ApiError.invalid([{ field: "/url", message: "must name a host and a port (host:port)" }]);
  if ((u.pathname && u.pathname !== "/") || u.search || u.hash)
    throw ApiError.invalid([
      { field: "/url", message: "must be scheme://user:pass@host:port, nothing after the port" },
    ]);
  return {
    url: `${scheme}//${u.username || u.password ? `${u.username}:${u.password}@` : ""}${u.host}`,
    address: `${scheme}//${u.host}`,
    host: u.hostname,
  };
}

/**
 * The organization's egress proxies. The URL's credentials are stored encrypted and never shown again; the
 * proxy's host must be on the operator's allow-list (EGRESS_PROXY_ALLOW): proxies often live in private
 * ranges, which the target rules refuse.
 */
export function proxyRoutes(db: Database, allow: readonly string[]): Router {
  const r = Router();

  r.post("/proxies", async (req, res) => {
    const checked = validate(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const { url, address, host } = readProxyUrl(checked.value.url);
    if (!proxyHostAllowed(host, allow)) {
      throw new ApiError(
        "target_not_allowed",
        `Proxy address refused: ${host} is not on this service's proxy allow-list (EGRESS_PROXY_ALLOW).`,
      );
    }
    const orgId = res.locals.orgId as string;
    if ((await db.proxies.list(orgId)).length >= MAX_PROXIES_PER_ORG) {
      throw ApiError.invalid([
        { field: "/url", message: `at most ${MAX_PROXIES_PER_ORG} proxies per organization; delete one first` },
      ]);
    }
    const created = await db.proxies.create(orgId, {
      url,
      address,
      label: checked.value.label,
      region: checked.value.region,
    });
    res.status(201).location(`${req.baseUrl}/proxies/${created.id}`).json(resource(created));
  });

  r.get("/proxies", async (_req, res) => {
    res.json({ proxies: (await db.proxies.list(res.locals.orgId as string)).map(resource) });
  });

  r.delete("/proxies/:id", async (req, res) => {
    if (!PROXY_ID.test(req.params.id) || !(await db.proxies.remove(res.locals.orgId as string, req.params.id))) {
      throw new ApiError("not_found", "No such proxy.");
    }
    res.status(204).end();
  });

  return r;
}
