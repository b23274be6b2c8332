import { createPublicKey } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { type Request, type Response, Router, json } from "express";
import { readCookie } from "./accounts";

interface Enrolled extends WebAuthnCredential {
  createdAt: string;
}

/** An account of a site as its passkeys see it, and what the tests count of it. */
export interface PasskeyMember {
  userId: string;
  passkeys: Enrolled[];
  passwordSubmissions: number;
  passkeySignIns: number;
  refusedAssertions: number;
  /** New passkeys are held until the owner confirms them by mail (never, here): the site says "added" all the same. */
  holdsNew: boolean;
}

/** Where a site's passkey ceremonies live and how it signs an account in. */
export interface PasskeyHost {
  /** The path the site's passkey endpoints live under ("" or "/cases/passkey-site"). */
  base: string;
  /** The account the request's session is of, or null. */
  signedIn: (req: Request) => string | null | undefined;
  /** Starts the account's session on the response (a passkey sign-in that the site verified). */
  startSession: (res: Response, username: string) => void;
  /** The site's name, shown by the browser when a passkey is made. */
  name: string;
  /** Where the browser goes once a passkey signed it in. */
  signedInPage: string;
}

/**
 * A site's passkeys, as real sites build them on @simplewebauthn/server: registration ("Add a passkey":
 * resident key, user verification required) and sign-in (discoverable, or the account's own passkeys when
 * the page sends its username), each checked against the challenge the browser was given. The relying
 * party is the host name the page is visited under (an IP address cannot be one). A passkey sign-in the
 * site cannot verify (one it no longer knows, a counter gone backwards) is refused. One home for the
 * fixture sites that offer passkeys (passkey-site, the OAuth relying parties).
 */
export function passkeyCeremonies(host: PasskeyHost) {
  const members = new Map<string, PasskeyMember>();
  const member = (username: string) => {
    let m = members.get(username);
    if (!m)
      members.set(
        username,
        (m = {
          userId: Buffer.from(username).toString("base64url"),
          passkeys: [],
          passwordSubmissions: 0,
          passkeySignIns: 0,
          refusedAssertions: 0,
          holdsNew: false,
        }),
      );
    return m;
  };
  // The challenge each browser was given, by a cookie of its own (a real site keeps it in its session).
  const challenges = new Map<string, { challenge: string; username?: string }>();
  const rp = (req: Request) => ({ rpID: req.hostname, origin: `${req.protocol}://${req.headers.host}` });
  const challengeKey = (req: Request) => readCookie(req.headers.cookie, "pk_ceremony");
  const newCeremony = (res: Response, entry: { challenge: string; username?: string }) => {
    const key = Math.random().toString(36).slice(2);
    challenges.set(key, entry);
    res.cookie("pk_ceremony", key, { httpOnly: true, sameSite: "lax", path: "/" });
  };

  /** "Add a passkey": options from the site, the browser makes the passkey, the site checks and keeps it. */
  const addScript = `async function addPasskey() {
  const status = document.getElementById("status");
  try {
    const options = await (await fetch("${host.base}/passkeys/register-options", { method: "POST" })).json();
    const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    const answer = await fetch("${host.base}/passkeys/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(credential.toJSON()) });
    status.textContent = answer.ok ? "Passkey added." : "We couldn't add this passkey.";
    if (answer.ok) document.getElementById("passkeys")?.insertAdjacentHTML("beforeend", "<li>Passkey added just now</li>");
  } catch (e) {
    status.textContent = "No passkey was created.";
  }
}`;

  /** The sign-in ceremony's script for a login page: options from the site, the browser's answer back. */
  const signInScript = (username?: string, mediation?: "conditional") => `
async function passkeySignIn() {
  const status = document.getElementById("status");
  try {
    const options = await (await fetch("${host.base}/passkeys/sign-in-options", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: ${JSON.stringify(username ?? null)} }) })).json();
    const credential = await navigator.credentials.get({ ${mediation ? `mediation: "${mediation}", ` : ""}publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    const answer = await fetch("${host.base}/passkeys/sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(credential.toJSON()) });
    if (answer.ok) { location.href = "${host.signedInPage}"; return; }
    const error = document.getElementById("error");
    error.textContent = "We couldn't verify your passkey.";
    error.hidden = false;
  } catch (e) {
    status.textContent = "No passkey was used. You can sign in with your password.";
  }
}`;

  const router = Router();
  router.post(`${host.base}/passkeys/sign-in-options`, json(), async (req, res) => {
    const username = typeof req.body?.username === "string" ? req.body.username : undefined;
    const allow = username
      ? (members.get(username)?.passkeys ?? []).map((p) => ({ id: p.id, transports: p.transports }))
      : undefined;
    const options = await generateAuthenticationOptions({
      rpID: rp(req).rpID,
      allowCredentials: allow,
      userVerification: "required",
    });
    newCeremony(res, { challenge: options.challenge, username });
    res.json(options);
  });
  router.post(`${host.base}/passkeys/sign-in`, json(), async (req, res) => {
    const ceremony = challenges.get(challengeKey(req) ?? "");
    challenges.delete(challengeKey(req) ?? "");
    const id = String(req.body?.id ?? "");
    const owner = [...members.entries()].find(([, m]) => m.passkeys.some((p) => p.id === id));
    if (!ceremony || !owner) return res.status(400).json({ error: "unknown passkey" });
    const [username, m] = owner;
    const known = m.passkeys.find((p) => p.id === id)!;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: req.body,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: rp(req).origin,
        expectedRPID: rp(req).rpID,
        credential: known,
        requireUserVerification: true,
      });
      if (!verified) throw new Error("not verified");
      known.counter = authenticationInfo.newCounter;
    } catch {
      m.refusedAssertions++;
      return res.status(400).json({ error: "assertion refused" });
    }
    m.passkeySignIns++;
    host.startSession(res, username);
    res.status(204).end();
  });
  router.post(`${host.base}/passkeys/register-options`, async (req, res) => {
    const user = host.signedIn(req);
    if (!user) return res.status(401).json({ error: "sign in first" });
    const m = member(user);
    const options = await generateRegistrationOptions({
      rpName: host.name,
      rpID: rp(req).rpID,
      userName: user,
      userID: Buffer.from(m.userId),
      attestationType: "none",
      excludeCredentials: m.passkeys.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    newCeremony(res, { challenge: options.challenge, username: user });
    res.json(options);
  });
  router.post(`${host.base}/passkeys/register`, json(), async (req, res) => {
    const user = host.signedIn(req);
    const ceremony = challenges.get(challengeKey(req) ?? "");
    challenges.delete(challengeKey(req) ?? "");
    if (!user || !ceremony || ceremony.username !== user)
      return res.status(400).json({ error: "no registration under way" });
    try {
      const { verified, registrationInfo } = await verifyRegistrationResponse({
        response: req.body,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: rp(req).origin,
        expectedRPID: rp(req).rpID,
        requireUserVerification: true,
      });
      if (!verified || !registrationInfo) throw new Error("not verified");
      if (!member(user).holdsNew)
        member(user).passkeys.push({ ...registrationInfo.credential, createdAt: new Date().toISOString() });
    } catch {
      return res.status(400).json({ error: "registration refused" });
    }
    res.status(201).json({ ok: true });
  });

  /**
   * A passkey the account registered on another device (a password manager's, synced or exported since):
   * the site keeps its credential id and public key (SPKI DER: ES256 or EdDSA) as its registration ceremony
   * would have, with no ceremony here. What a test needs to bring that passkey's private key to a credential.
   */
  const registeredElsewhere = (username: string, credentialId: string, spki: Buffer) => {
    const jwk = createPublicKey({ key: spki, format: "der", type: "spki" }).export({ format: "jwk" });
    const bytes = (b64: string | undefined) => Buffer.from(b64 ?? "", "base64url");
    // COSE_Key (RFC 9053): EC2 (kty 2) ES256 (-7) on P-256 (crv 1) with x and y; OKP (kty 1) EdDSA (-8) on Ed25519 (crv 6) with x.
    const cose =
      jwk.kty === "EC" && jwk.crv === "P-256"
        ? new Map<number, number | Uint8Array>([
            [1, 2],
            [3, -7],
            [-1, 1],
            [-2, bytes(jwk.x)],
            [-3, bytes(jwk.y)],
          ])
        : jwk.kty === "OKP" && jwk.crv === "Ed25519"
          ? new Map<number, number | Uint8Array>([
              [1, 1],
              [3, -8],
              [-1, 6],
              [-2, bytes(jwk.x)],
            ])
          : null;
    if (!cose) throw new Error("an ES256 (P-256) or EdDSA (Ed25519) public key only");
    member(username).passkeys.push({
      id: credentialId,
      publicKey: isoCBOR.encode(cose),
      counter: 0,
      transports: ["internal"],
      createdAt: new Date().toISOString(),
    });
  };

  /** What the tests read of an account: its counts and the passkeys the site keeps (id, counter). */
  const counts = (username: string) => {
    const m = members.get(username);
    return {
      passwordSubmissions: m?.passwordSubmissions ?? 0,
      passkeySignIns: m?.passkeySignIns ?? 0,
      refusedAssertions: m?.refusedAssertions ?? 0,
      passkeys: (m?.passkeys ?? []).map((p) => ({ id: p.id, counter: p.counter, createdAt: p.createdAt })),
    };
  };
  return { router, members, member, addScript, signInScript, counts, registeredElsewhere };
}
