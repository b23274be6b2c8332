-- What worked on a login page before, per organization: steps and selectors, never a value.
CREATE TABLE "learned_flows" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "login_page" TEXT NOT NULL,
    "flow" JSONB NOT NULL,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "relearned" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "learned_flows_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "learned_flows_org_id_login_page_key" ON "learned_flows"("org_id", "login_page");

ALTER TABLE "learned_flows" ADD CONSTRAINT "learned_flows_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- How a login found its way: detected, a learned flow replayed, or a learned flow that no longer fit.
ALTER TABLE "auth_jobs" ADD COLUMN "flow_source" TEXT;
