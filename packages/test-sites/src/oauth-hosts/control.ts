import { Router, json } from "express";
import type { ProviderStore, ProviderUserInput } from "./store";

/**
 * The JSON control surface a provider fixture serves under /__fixture/ on its loopback port (never
 * through the host map): tests add users and read the passwords typed for them.
 */
export function controlRoutes(store: ProviderStore): Router {
  const r = Router();
  r.post("/__fixture/users", json(), (req, res) => {
    const body = (req.body ?? {}) as Partial<ProviderUserInput>;
    if (typeof body.email !== "string" || typeof body.password !== "string") {
      res.status(400).json({ error: "email and password are required" });
      return;
    }
    try {
      const user = store.addUser(body as ProviderUserInput);
      res.status(201).json({ id: user.id, email: user.email, totp: !!user.totp, blocked: user.blocked ?? false });
    } catch (err) {
      res.status(400).json({ error: (err as Error).message });
    }
  });
  r.get("/__fixture/users/:id/passwords", (req, res) => {
    res.json({ passwords: store.passwordsFor(req.params.id) });
  });
  return r;
}
