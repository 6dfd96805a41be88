-- Routines: recurring or externally triggered work, their triggers (schedule, webhook, api) and
-- their runs. Due schedule triggers are found by the per-minute tick through routine_triggers_due_idx.
CREATE TABLE `routines` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `title` text NOT NULL,
  `description` text,
  `assignee_agent_id` text,
  `project_id` text,
  `goal_id` text,
  `parent_issue_id` text,
  `priority` text NOT NULL,
  `status` text NOT NULL,
  `concurrency_policy` text NOT NULL,
  `catch_up_policy` text NOT NULL,
  `variables` text NOT NULL,
  `created_by_agent_id` text,
  `created_by_user_id` text,
  `last_triggered_at` text,
  `version` integer DEFAULT 0 NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `routines_company_updated_idx` ON `routines` (`company_id`,`updated_at`);
CREATE INDEX `routines_assignee_idx` ON `routines` (`assignee_agent_id`);

CREATE TABLE `routine_triggers` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `routine_id` text NOT NULL REFERENCES `routines`(`id`) ON DELETE cascade,
  `kind` text NOT NULL,
  `label` text,
  `enabled` integer NOT NULL,
  `cron_expression` text,
  `timezone` text,
  `next_run_at` text,
  `last_fired_at` text,
  `public_id` text,
  `signing_mode` text,
  `replay_window_sec` integer,
  `secret_ciphertext` text,
  `secret_version` integer DEFAULT 0 NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `routine_triggers_routine_idx` ON `routine_triggers` (`routine_id`);
CREATE UNIQUE INDEX `routine_triggers_public_id_uq` ON `routine_triggers` (`public_id`) WHERE `public_id` IS NOT NULL;
CREATE INDEX `routine_triggers_due_idx` ON `routine_triggers` (`next_run_at`) WHERE `next_run_at` IS NOT NULL;

CREATE TABLE `routine_runs` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `routine_id` text NOT NULL REFERENCES `routines`(`id`) ON DELETE cascade,
  `trigger_id` text,
  `source` text NOT NULL,
  `status` text NOT NULL,
  `trigger_payload` text,
  `variables` text,
  `linked_issue_id` text,
  `coalesced_into_run_id` text,
  `failure_reason` text,
  `idempotency_key` text,
  `completed_at` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `routine_runs_routine_created_idx` ON `routine_runs` (`routine_id`,`created_at`);
CREATE INDEX `routine_runs_linked_issue_idx` ON `routine_runs` (`linked_issue_id`) WHERE `linked_issue_id` IS NOT NULL;
CREATE UNIQUE INDEX `routine_runs_idempotency_uq` ON `routine_runs` (`routine_id`,`idempotency_key`) WHERE `idempotency_key` IS NOT NULL;
