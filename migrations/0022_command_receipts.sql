-- Receipts of mutations made with an Idempotency-Key (src/db/schema/receipts.ts).
CREATE TABLE `command_receipts` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `caller` text NOT NULL,
  `key` text NOT NULL,
  `command` text NOT NULL,
  `request_hash` text NOT NULL,
  `entity_type` text,
  `entity_id` text,
  `response` text,
  `created_at` text NOT NULL
);
CREATE UNIQUE INDEX `command_receipts_company_caller_key_uq` ON `command_receipts` (`company_id`,`caller`,`key`);
CREATE INDEX `command_receipts_created_idx` ON `command_receipts` (`created_at`);
