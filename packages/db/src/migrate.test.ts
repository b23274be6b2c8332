import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { applyMigrations, ensureDatabase, MIGRATIONS_DIR, readMigrations } from "./migrate";

const server = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432";
const url = `${server}/authsvc_unit_migrate`;

async function query<T extends object>(sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

beforeEach(async () => {
  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS "authsvc_unit_migrate" WITH (FORCE)');
  await admin.end();
});

describe("applyMigrations", () => {
  it("creates the database, applies every migration once and records it as Prisma does", async () => {
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
    const names = readMigrations().map((m) => m.name);
    expect(await applyMigrations(url)).toEqual(names);
    expect(await applyMigrations(url)).toEqual([]);
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at)).toBe(true);
    const tables = await query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining([
        "organizations",
        "api_keys",
        "collections",
        "credentials",
        "sessions",
        "auth_jobs",
        "credential_passkeys",
      ]),
    );
  });

  it("applies each migration once when several processes start together", async () => {
    await ensureDatabase(url);
    const runs = await Promise.all([applyMigrations(url), applyMigrations(url), applyMigrations(url)]);
    expect(runs.flat()).toEqual(readMigrations().map((m) => m.name));
  });

  it("refuses to run when an applied migration was edited, and rolls back a failing one", async () => {
    await ensureDatabase(url);
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    await applyMigrations(url, dir);
    const first = readdirSync(dir)
      .filter((d) => /^\d/.test(d))
      .sort()[0]!;
    writeFileSync(path.join(dir, first, "migration.sql"), "SELECT 1;");
    await expect(applyMigrations(url, dir)).rejects.toThrow(/edited after it was applied/);

    const fresh = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_DIR, fresh, { recursive: true });
    cpSync(path.join(fresh, first), path.join(fresh, "29990101000000_broken"), { recursive: true });
    writeFileSync(
      path.join(fresh, "29990101000000_broken", "migration.sql"),
      "CREATE TABLE half_done (id int); SELECT nope;",
    );
    await expect(applyMigrations(url, fresh)).rejects.toThrow(/29990101000000_broken failed/);
    expect(await query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
  });
});
