-- The service's own inboxes: email addresses on the mailbox domain and phone numbers, each owned by one
-- organization, and the verification messages they received (encrypted; deleted after the retention).
-- A deleted mailbox stays as a tombstone (deleted_at): its address is never handed to anyone else, who
-- would then receive mail meant for the first owner.
CREATE TABLE "mailboxes" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "mailboxes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "mailboxes_address_key" ON "mailboxes"("address");
CREATE INDEX "mailboxes_org_id_idx" ON "mailboxes"("org_id");
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "phone_numbers" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phone_numbers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "phone_numbers_number_key" ON "phone_numbers"("number");
CREATE INDEX "phone_numbers_org_id_idx" ON "phone_numbers"("org_id");
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- received_at is the database's clock (timestamptz), the same clock a waiting flow marks "asked at" with.
CREATE TABLE "inbound_messages" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "mailbox_id" TEXT,
    "phone_number_id" TEXT,
    -- The address or number it was sent to, as given (a mailbox's agent+shop@ subaddress included).
    "recipient" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "inbound_messages_one_inbox" CHECK (("mailbox_id" IS NULL) <> ("phone_number_id" IS NULL))
);
CREATE INDEX "inbound_messages_mailbox_id_received_at_idx" ON "inbound_messages"("mailbox_id", "received_at");
CREATE INDEX "inbound_messages_phone_number_id_received_at_idx" ON "inbound_messages"("phone_number_id", "received_at");
CREATE INDEX "inbound_messages_received_at_idx" ON "inbound_messages"("received_at");
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_phone_number_id_fkey" FOREIGN KEY ("phone_number_id") REFERENCES "phone_numbers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
