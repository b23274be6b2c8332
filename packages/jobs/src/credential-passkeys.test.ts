import { useJobsEnv } from "./testing/jobs-env";

// A credential's passkeys at rest: the key material sealed under the row's own associated data, listings
// without it, every read scoped to the org, the counter kept after a use, removed with their credential.
const env = useJobsEnv("unit_jobs_passkeys", { attempts: 1, backoffMs: 100 });

const key = (n: number) => ({
  credentialId: `Y3JlZGVudGlhbC1pZC0${n}`,
  rpId: "passkeys.example",
  privateKey: `MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg-private-key-${n}`,
  userHandle: "dXNlci1oYW5kbGU=",
  signCount: 0,
  isResidentCredential: true,
});

describe("a credential's passkeys", () => {
  it("keeps the key sealed, lists it without its key, updates its counter and forgets it", async () => {
    const org = await env.db.organizations.create("Passkey org");
    const other = await env.db.organizations.create("Other passkey org");
    const cred = await env.db.credentials.ensure({
      orgId: org.id,
      loginUrl: "https://passkeys.example/login",
      username: "agent-7",
    });

    const listed = await env.db.passkeys.add(org.id, cred.id, key(1));
    expect(listed).toMatchObject({ rpId: "passkeys.example", lastUsedAt: null });
    expect(await env.db.passkeys.add(other.id, cred.id, key(2))).toBeNull();

    // At rest: nothing of the key, the credential id or the user handle in the clear.
    const [row] = await env.db.prisma.$queryRawUnsafe<Array<{ sealed: string }>>(
      `SELECT sealed FROM credential_passkeys WHERE id = $1`,
      listed!.id,
    );
    for (const part of ["private-key-1", key(1).privateKey, key(1).credentialId, key(1).userHandle])
      expect(row!.sealed).not.toContain(part);
    // Sealed to its row: moved to another passkey's row, it does not open.
    const second = await env.db.passkeys.add(org.id, cred.id, key(3));
    await env.db.prisma.credentialPasskey.update({ where: { id: second!.id }, data: { sealed: row!.sealed } });
    await expect(env.db.passkeys.keys(org.id, cred.id)).rejects.toThrow();
    expect(await env.db.passkeys.remove(org.id, cred.id, second!.id)).toBe(true);

    expect(await env.db.passkeys.list(other.id, cred.id)).toEqual([]);
    expect(await env.db.passkeys.keys(org.id, cred.id)).toEqual([{ id: listed!.id, key: key(1) }]);
    await env.db.passkeys.used(org.id, cred.id, listed!.id, { ...key(1), signCount: 4 });
    const [kept] = await env.db.passkeys.keys(org.id, cred.id);
    expect(kept!.key.signCount).toBe(4);
    expect((await env.db.passkeys.list(org.id, cred.id))[0]!.lastUsedAt).toBeInstanceOf(Date);

    expect(await env.db.passkeys.remove(other.id, cred.id, listed!.id)).toBe(false);
    expect(await env.db.passkeys.remove(org.id, cred.id, listed!.id)).toBe(true);
    expect(await env.db.passkeys.list(org.id, cred.id)).toEqual([]);

    // Removed with their credential.
    await env.db.passkeys.add(org.id, cred.id, key(4));
    await env.db.prisma.credential.delete({ where: { id: cred.id } });
    expect(await env.db.prisma.credentialPasskey.count({ where: { credentialId: cred.id } })).toBe(0);
  });
});
