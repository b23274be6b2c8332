-- An organization's forwarding inbox: one of its mailboxes, to which callers forward their own mailbox
-- (a Gmail or Workspace address). At most one live one per organization.
ALTER TABLE "mailboxes" ADD COLUMN "forwarding" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "mailboxes_org_id_forwarding_key" ON "mailboxes"("org_id") WHERE "forwarding" AND "deleted_at" IS NULL;

-- Whom a forwarded message was first sent to (Delivered-To, X-Forwarded-To, X-Original-To, To, Resent-To),
-- lower case, +tags as sent: a waiting flow reads only the mail of its own address. Not a secret.
ALTER TABLE "inbound_messages" ADD COLUMN "original_recipients" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
