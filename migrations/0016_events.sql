-- Outbound events: the company's event outbox (written in the batch of the change that causes
-- it), webhook subscriptions and their deliveries (one row per subscription and event).
CREATE TABLE `company_events` (
  `seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `id` text NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `type` text NOT NULL,
  `actor_type` text NOT NULL,
  `actor_id` text NOT NULL,
  `subject_type` text NOT NULL,
  `subject_id` text NOT NULL,
  `data` text NOT NULL,
  `occurred_at` text NOT NULL
);
CREATE UNIQUE INDEX `company_events_id_uq` ON `company_events` (`id`);
CREATE INDEX `company_events_company_seq_idx` ON `company_events` (`company_id`,`seq`);

CREATE TABLE `webhook_subscriptions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `url` text NOT NULL,
  `events` text NOT NULL,
  `enabled` integer NOT NULL,
  `description` text,
  `secret_ciphertext` text NOT NULL,
  `disabled_reason` text,
  `failing_since` text,
  `created_by_user_id` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `webhook_subscriptions_company_idx` ON `webhook_subscriptions` (`company_id`);

CREATE TABLE `webhook_deliveries` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `subscription_id` text NOT NULL REFERENCES `webhook_subscriptions`(`id`) ON DELETE cascade,
  `event_id` text NOT NULL,
  `event_seq` integer NOT NULL,
  `event_type` text NOT NULL,
  `status` text NOT NULL,
  `attempts` integer NOT NULL,
  `next_attempt_at` text,
  `response_status` integer,
  `latency_ms` integer,
  `last_error` text,
  `response_body` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `webhook_deliveries_subscription_idx` ON `webhook_deliveries` (`subscription_id`,`event_seq`);
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`company_id`,`status`,`next_attempt_at`);
