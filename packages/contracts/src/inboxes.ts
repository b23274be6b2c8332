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
export const inboundMessageSchema = Type.Object({
  id: Type.String({ pattern: "^msg_" }),
  from: Type.String(),
  subject: Type.String(),
  recipient: Type.String({ description: "Our address it was delivered to, with any +tag." }),
  originalRecipients: Type.Array(Type.String(), {
    description: "Whom a forwarded message was first sent to (from its headers); [] for mail sent to us directly.",
  }),
  receivedAt: Type.String({ format: "date-time" }),
  authenticated: nullable(
    Type.Object({
      dkim: Type.Array(Type.String(), {
        description: "Domains whose DKIM signature verifies on the message as it reached us.",
      }),
      arc: Type.Array(Type.String(), {
        description:
          "Domains a trusted forwarder's ARC seal vouches for (their DKIM passed before it forwarded the message).",
      }),
    }),
    {
      description:
        "Which domains the message proved it came from, checked for the forwarding inbox's mail; a login reads a forwarded message only when one of them is the site's domain. null: not checked (mail sent to one of our mailboxes directly).",
    },
  ),
  code: nullable(Type.String(), { description: "The verification code found in it." }),
  link: nullable(Type.String(), { description: "The sign-in or confirmation link found in it." }),
  text: Type.Optional(Type.String({ description: "Only with include=body." })),
  html: Type.Optional(Type.String({ description: "Only with include=body." })),
});
export type InboundMessageResource = Static<typeof inboundMessageSchema>;

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
