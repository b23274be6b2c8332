import type { IndexedDbDatabase } from "@authsvc/contracts";

export interface OriginStorage {
  localStorage: Array<{ name: string; value: string }>;
  indexedDB: IndexedDbDatabase[];
}

/**
 * Runs in a document of the origin (Puppeteer serializes it: self-contained, no imports): its
 * localStorage, and its IndexedDB databases in the shape Playwright's `storageState({ indexedDB: true })`
 * writes. JSON-like values go in `value`/`key`; anything else (dates, NaN, cycles) in `valueEncoded`/
 * `keyEncoded`, in the serialized form Playwright parses back when it restores. A database larger than
 * `maxDatabaseChars` (an offline cache, not a session) is left out.
 */
export async function readOriginStorageInPage(maxDatabaseChars: number): Promise<OriginStorage> {
  const local = Object.keys(localStorage).map((name) => ({ name, value: localStorage.getItem(name) ?? "" }));
  const done = <T>(req: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const isPlain = (v: unknown, seen: Set<unknown>): boolean => {
    if (v === null || typeof v === "string" || typeof v === "boolean") return true;
    if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0);
    if (typeof v !== "object" || seen.has(v)) return false;
    const proto = Object.getPrototypeOf(v);
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return false;
    seen.add(v);
    const ok = Object.values(v as object).every((x) => isPlain(x, seen));
    seen.delete(v);
    return ok;
  };
  const encode = (v: unknown, ids: Map<object, number>): unknown => {
    if (v === undefined || typeof v === "symbol" || typeof v === "function") return { v: "undefined" };
    if (v === null) return { v: "null" };
    if (typeof v === "number") {
      if (Number.isNaN(v)) return { v: "NaN" };
      if (v === Infinity) return { v: "Infinity" };
      if (v === -Infinity) return { v: "-Infinity" };
      if (Object.is(v, -0)) return { v: "-0" };
      return v;
    }
    if (typeof v === "bigint") return { v: "undefined" };
    if (typeof v !== "object") return v;
    if (v instanceof Date) return { d: v.toJSON() };
    if (v instanceof URL) return { u: v.toJSON() };
    if (v instanceof RegExp) return { r: { p: v.source, f: v.flags } };
    const known = ids.get(v);
    if (known) return { ref: known };
    const id = ids.size + 1;
    ids.set(v, id);
    if (Array.isArray(v)) return { a: v.map((x) => encode(x, ids)), id };
    return { o: Object.keys(v).map((k) => ({ k, v: encode((v as Record<string, unknown>)[k], ids) })), id };
  };
  const put = (record: Record<string, unknown>, field: "key" | "value", v: unknown) => {
    if (isPlain(v, new Set())) record[field] = v;
    else record[`${field}Encoded`] = encode(v, new Map());
  };
  const keyPathOf = (keyPath: string | string[] | null) =>
    typeof keyPath === "string" ? { keyPath } : Array.isArray(keyPath) ? { keyPathArray: [...keyPath] } : {};

  const databases: IndexedDbDatabase[] = [];
  const infos = typeof indexedDB?.databases === "function" ? await indexedDB.databases().catch(() => []) : [];
  for (const info of infos) {
    if (!info.name || !info.version) continue;
    const db = await done(indexedDB.open(info.name)).catch(() => null);
    if (!db) continue;
    try {
      const names = [...db.objectStoreNames];
      const tx = names.length ? db.transaction(names, "readonly") : null;
      const stores = await Promise.all(
        names.map(async (name) => {
          const store = tx!.objectStore(name);
          const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
          const records = keys.map((key, i) => {
            const record: Record<string, unknown> = {};
            if (store.keyPath === null) put(record, "key", key);
            put(record, "value", values[i]);
            return record;
          });
          const indexes = [...store.indexNames].map((indexName) => {
            const index = store.index(indexName);
            return {
              name: index.name,
              ...keyPathOf(index.keyPath),
              multiEntry: index.multiEntry,
              unique: index.unique,
            };
          });
          return { name, ...keyPathOf(store.keyPath), autoIncrement: store.autoIncrement, indexes, records };
        }),
      );
      const database = { name: info.name, version: info.version, stores };
      if (JSON.stringify(database).length <= maxDatabaseChars) databases.push(database);
    } catch {
      // A database that cannot be read now (blocked by an upgrade in another tab) is left out.
    } finally {
      db.close();
    }
  }
  return { localStorage: local, indexedDB: databases };
}
