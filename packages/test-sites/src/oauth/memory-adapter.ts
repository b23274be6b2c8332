import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/**
 * oidc-provider's storage (sessions, interactions, grants, codes) in one Map per provider. Its built-in
 * memory adapter does the same but warns at every start (it is meant for quick starts, not servers); a
 * fixture that lives for one test run needs nothing more.
 */
export function memoryAdapter(): AdapterFactory {
  const store = new Map<string, Entry>();
  const grants = new Map<string, Set<string>>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) store.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry : undefined;
  };
  return (name: string): Adapter => {
    const key = (id: string) => `${name}:${id}`;
    const findBy = (field: "uid" | "userCode", value: string) => {
      for (const [k, entry] of store)
        if (k.startsWith(`${name}:`) && entry.payload[field] === value) return live(k)?.payload;
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        store.set(key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
        if (payload.grantId) grants.set(payload.grantId, (grants.get(payload.grantId) ?? new Set()).add(key(id)));
      },
      async find(id) {
        return live(key(id))?.payload;
      },
      async findByUid(uid) {
        return findBy("uid", uid);
      },
      async findByUserCode(userCode) {
        return findBy("userCode", userCode);
      },
      async consume(id) {
        const entry = store.get(key(id));
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const k of grants.get(grantId) ?? []) store.delete(k);
        grants.delete(grantId);
      },
    };
  };
}
