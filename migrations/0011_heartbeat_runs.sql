-- Heartbeat runs become what the company object dispatches: the wake reason and context, the
-- issue, retry bookkeeping, the completion deadline of an asynchronous (202) run, idempotency;
-- wake-ups record why they were skipped; runs get an ordered event log.
ALTER TABLE `heartbeat_runs` ADD COLUMN `issue_id` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `reason` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `context` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `error_code` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `summary` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `retry_count` integer DEFAULT 0 NOT NULL;
ALTER TABLE `heartbeat_runs` ADD COLUMN `next_retry_at` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `deadline_at` text;
ALTER TABLE `heartbeat_runs` ADD COLUMN `idempotency_key` text;
CREATE UNIQUE INDEX `heartbeat_runs_idempotency_uq` ON `heartbeat_runs` (`agent_id`,`idempotency_key`) WHERE `idempotency_key` IS NOT NULL;
CREATE INDEX `heartbeat_runs_company_created_idx` ON `heartbeat_runs` (`company_id`,`created_at`,`id`);
CREATE INDEX `heartbeat_runs_finished_idx` ON `heartbeat_runs` (`finished_at`);

ALTER TABLE `agent_wakeup_requests` ADD COLUMN `skip_reason` text;
CREATE INDEX `agent_wakeup_requests_updated_idx` ON `agent_wakeup_requests` (`status`,`updated_at`);

CREATE TABLE `heartbeat_run_events` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `run_id` text NOT NULL REFERENCES `heartbeat_runs`(`id`) ON DELETE cascade,
  `seq` integer NOT NULL,
  `kind` text NOT NULL,
  `message` text,
  `data` text,
  `created_at` text NOT NULL
);
CREATE UNIQUE INDEX `heartbeat_run_events_run_seq_uq` ON `heartbeat_run_events` (`run_id`,`seq`);
