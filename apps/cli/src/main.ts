import { parseArgs } from "node:util";
import { loadConfig, type RedisTarget } from "@authsvc/config";
import { E164 } from "@authsvc/contracts";
import { AddressTakenError, Database, applyMigrations } from "@authsvc/db";
import { announceKeyRevocation, createRedis, redisReady } from "@authsvc/queue";

const USAGE = `usage:
  pnpm cli org create <name>                 create an organization, print its id
  pnpm cli org list
  pnpm cli key create --org <orgId> [--name <name>]   mint an API key (shown once)
  pnpm cli key list --org <orgId>
  pnpm cli key revoke <keyId | public prefix>
  pnpm cli phone add --org <orgId> <+E.164> [--name <label>]   assign a Twilio number (its SMS go to that org)
  pnpm cli phone list --org <orgId>
  pnpm cli phone remove <+E.164>             unassign a number, deleting the SMS it received
  pnpm cli admin grant <email>               make a dashboard account platform staff (the Admin area)
  pnpm cli admin revoke <email>              take platform staff rights away
  pnpm cli migrate                           apply pending database migrations`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** Gateways keep verified keys in memory: tell them, or they accept the revoked key until their cache expires. */
async function announceRevocation(target: RedisTarget, prefix: string, orgId: string): Promise<void> {
  const redis = createRedis(target, "producer", "cli");
  redis.on("error", () => undefined);
  try {
    await redisReady(redis, 5_000);
    await announceKeyRevocation(redis, prefix, orgId);
  } catch (err) {
    process.stderr.write(
      `revoked in the database, but Redis was not reachable to tell the gateways (${err instanceof Error ? err.message : String(err)}): they refuse the key within 30 s\n`,
    );
    process.exitCode = 1;
  } finally {
    redis.disconnect();
  }
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { org: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
  });
  const [noun, verb, arg] = positionals;
  const config = loadConfig();
  if (noun === "migrate") {
    const applied = await applyMigrations(config.databaseUrl);
    process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
    return;
  }
  const db = Database.fromConfig(config, 1);
  const print = (text: string, data: unknown) =>
    process.stdout.write(values.json ? `${JSON.stringify(data)}\n` : `${text}\n`);
  try {
    if (noun === "org" && verb === "create") {
      if (!arg) fail("org create needs a name");
      const org = await db.organizations.create(arg);
      print(`created organization ${org.id} (${org.name})`, org);
    } else if (noun === "org" && verb === "list") {
      const orgs = await db.organizations.list();
      print(orgs.map((o) => `${o.id}\t${o.name}`).join("\n") || "no organizations", orgs);
    } else if (noun === "key" && verb === "create") {
      if (!values.org) fail("key create needs --org <orgId>");
      if (!(await db.organizations.find(values.org))) fail(`no organization ${values.org}`);
      const { key, apiKey } = await db.apiKeys.create(values.org, values.name ?? "cli");
      print(`created key ${apiKey.id} for ${values.org}\n\n  ${key}\n\nStore it now: it is shown only this once.`, {
        id: apiKey.id,
        key,
        prefix: apiKey.prefix,
      });
    } else if (noun === "key" && verb === "list") {
      if (!values.org) fail("key list needs --org <orgId>");
      if (!(await db.organizations.find(values.org))) fail(`no organization ${values.org}`);
      const keys = await db.apiKeys.list(values.org);
      print(
        keys
          .map(
            (k) =>
              `${k.id}\t${k.prefix}…\t${k.name}\t${k.revokedAt ? "revoked" : "active"}\tlast used ${k.lastUsedAt?.toISOString() ?? "never"}`,
          )
          .join("\n") || "no keys",
        keys,
      );
    } else if (noun === "key" && verb === "revoke") {
      if (!arg) fail("key revoke needs a key id or prefix");
      const revoked = await db.apiKeys.revoke(arg, (orgId) =>
        announceRevocation(config.redis, config.redis.prefix, orgId),
      );
      if (!revoked) fail(`no key ${arg}`);
      print(`revoked ${revoked.id}`, { id: revoked.id, revokedAt: revoked.revokedAt });
    } else if (noun === "phone" && verb === "add") {
      if (!values.org) fail("phone add needs --org <orgId>");
      if (!arg || !new RegExp(E164).test(arg)) fail("phone add needs an E.164 number, e.g. +14155550123");
      if (!(await db.organizations.find(values.org))) fail(`no organization ${values.org}`);
      try {
        const phone = await db.phoneNumbers.create(values.org, arg, values.name);
        print(
          `assigned ${phone.number} to ${values.org} (${phone.id}); point its Twilio messaging webhook at <gateway>/v1/inbound/sms`,
          phone,
        );
      } catch (err) {
        if (err instanceof AddressTakenError) fail(`${arg} is already assigned; remove it first`);
        throw err;
      }
    } else if (noun === "phone" && verb === "list") {
      if (!values.org) fail("phone list needs --org <orgId>");
      const phones = await db.phoneNumbers.list(values.org);
      print(phones.map((p) => `${p.id}\t${p.number}\t${p.label ?? ""}`).join("\n") || "no phone numbers", phones);
    } else if (noun === "phone" && verb === "remove") {
      if (!arg) fail("phone remove needs a number");
      if (!(await db.phoneNumbers.remove(arg))) fail(`${arg} is not assigned`);
      print(`removed ${arg}`, { number: arg });
    } else if (noun === "admin" && (verb === "grant" || verb === "revoke")) {
      if (!arg) fail(`admin ${verb} needs the email of a dashboard account`);
      if (!(await db.dashboardUsers.setPlatformAdmin(arg, verb === "grant")))
        fail(`no dashboard account ${arg} (sign up in the dashboard first)`);
      print(verb === "grant" ? `${arg} is platform staff now` : `${arg} is no longer platform staff`, {
        email: arg.toLowerCase(),
        isPlatformAdmin: verb === "grant",
      });
    } else {
      fail(positionals.length ? `unknown command: ${positionals.join(" ")}` : "no command");
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
