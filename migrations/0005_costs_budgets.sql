-- Costs, finance events and budget incidents.
CREATE TABLE `cost_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`agent_id` text NOT NULL,
	`issue_id` text,
	`project_id` text,
	`goal_id` text,
	`heartbeat_run_id` text,
	`billing_code` text,
	`provider` text NOT NULL,
	`biller` text NOT NULL,
	`billing_type` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`cached_input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cost_cents` integer NOT NULL,
	`occurred_at` text NOT NULL,
	`created_at` text NOT NULL
);
CREATE INDEX `cost_events_company_occurred_idx` ON `cost_events` (`company_id`,`occurred_at`);
CREATE INDEX `cost_events_company_agent_occurred_idx` ON `cost_events` (`company_id`,`agent_id`,`occurred_at`);
CREATE INDEX `cost_events_company_project_occurred_idx` ON `cost_events` (`company_id`,`project_id`,`occurred_at`);

CREATE TABLE `finance_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`kind` text NOT NULL,
	`direction` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`estimated` integer NOT NULL,
	`biller` text,
	`provider` text,
	`cost_event_id` text,
	`description` text,
	`metadata` text,
	`occurred_at` text NOT NULL,
	`created_by_user_id` text,
	`created_at` text NOT NULL
);
CREATE INDEX `finance_events_company_occurred_idx` ON `finance_events` (`company_id`,`occurred_at`);

CREATE TABLE `budget_incidents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`policy_id` text NOT NULL,
	`scope_type` text NOT NULL,
	`scope_id` text NOT NULL,
	`kind` text NOT NULL,
	`window_kind` text NOT NULL,
	`window_key` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`threshold_cents` integer NOT NULL,
	`observed_cents` integer NOT NULL,
	`status` text NOT NULL,
	`resolution` text,
	`approval_id` text,
	`resolved_at` text,
	`resolved_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `budget_incidents_scope_window_uq` ON `budget_incidents` (`company_id`,`scope_type`,`scope_id`,`kind`,`window_key`,`threshold_cents`);
CREATE INDEX `budget_incidents_company_status_idx` ON `budget_incidents` (`company_id`,`status`);
