/** The service's own inboxes: mailboxes on its mail domain and phone numbers whose SMS reach its webhook. */
import { Type, type Static } from "@sinclair/typebox";
import { nullable } from "./nullable";

export const mailboxSchema = Type.Object({
  id: Type.String({ pattern: "^mbx_" }),
  address: Type.String({ description: "On the service's mail domain; use it as the account's email on the site." }),
  label: nullable(Type.String()),
  forwarding: Type.Boolean({ description: "The organization's forwarding inbox: forward your own mailbox here." }),
  createdAt: Type.String({ format: "date-time" }),
});
export type MailboxResource = Static<typeof mailboxSchema>;

/** A message a mailbox received, as GET /v1/mailboxes/{id}/messages lists it. */
export interface InboundMessageResource {
  id: string;
  from: string;
  subject: string;
  /** The address of ours it was delivered to (with any +tag). */
  recipient: string;
  /** Whom a forwarded message was first sent to, read from its headers; [] for mail sent to us directly. */
  originalRecipients: string[];
  receivedAt: string;
  /**
   * Which domains the message proved it came from, checked for the forwarding inbox's mail: `dkim`, domains
   * whose DKIM signature verifies as it reached us; `arc`, domains a trusted forwarder's ARC seal vouches
   * for. A login reads a forwarded message only when one is the site's domain. null: not checked (mail
   * sent to one of our mailboxes directly).
   */
  authenticated: { dkim: string[]; arc: string[] } | null;
  /** The verification code and sign-in or confirmation link found in it, if any. */
  code: string | null;
  link: string | null;
  /** Only with `?include=body`. */
  text?: string;
  html?: string;
}

export const phoneNumberSchema = Type.Object({
  id: Type.String({ pattern: "^pn_" }),
  number: Type.String({ description: "E.164" }),
  label: nullable(Type.String()),
  createdAt: Type.String({ format: "date-time" }),
});
export type PhoneNumberResource = Static<typeof phoneNumberSchema>;

/** E.164: +, country code, subscriber number; 8 to 15 digits in all. */
export const E164 = "^\\+[1-9][0-9]{7,14}$";
const label = Type.String({ minLength: 1, maxLength: 128, pattern: "^[^\\u0000-\\u001f\\u007f]+$" });

export const mailboxRequestSchema = Type.Object(
  {
    // The part before the @; random when left out. Letters, digits and . _ -, starting and ending with a
    // letter or digit; no "+" (it is the subaddress separator).
    localPart: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9])?$" }),
    ),
    label: Type.Optional(label),
  },
  { $id: "MailboxRequest", additionalProperties: false },
);
export type MailboxRequest = Static<typeof mailboxRequestSchema>;
