-- Approvals, heartbeat runs and wake-up requests: shared by agents, issues, approvals and budgets.
CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`requested_by_agent_id` text,
	`requested_by_user_id` text,
	`decision_note` text,
	`decided_by_user_id` text,
	`decided_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `approvals_company_status_idx` ON `approvals` (`company_id`,`status`);
CREATE TABLE `approval_issues` (
	`approval_id` text NOT NULL REFERENCES `approvals`(`id`) ON DELETE cascade,
	`issue_id` text NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`created_at` text NOT NULL,
	PRIMARY KEY(`approval_id`, `issue_id`)
);
CREATE INDEX `approval_issues_issue_idx` ON `approval_issues` (`issue_id`);
CREATE TABLE `approval_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`approval_id` text NOT NULL REFERENCES `approvals`(`id`) ON DELETE cascade,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`body` text NOT NULL,
	`author_agent_id` text,
	`author_user_id` text,
	`created_at` text NOT NULL
);
CREATE INDEX `approval_comments_approval_idx` ON `approval_comments` (`approval_id`,`created_at`);
CREATE TABLE `heartbeat_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`agent_id` text NOT NULL,
	`status` text NOT NULL,
	`adapter_type` text NOT NULL,
	`invocation_source` text NOT NULL,
	`wakeup_request_id` text,
	`started_at` text,
	`finished_at` text,
	`last_activity_at` text,
	`usage_json` text,
	`result_json` text,
	`error` text,
	`log_bytes` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `heartbeat_runs_company_agent_idx` ON `heartbeat_runs` (`company_id`,`agent_id`,`status`);
CREATE TABLE `agent_wakeup_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`agent_id` text NOT NULL,
	`status` text NOT NULL,
	`reason` text NOT NULL,
	`source` text NOT NULL,
	`issue_id` text,
	`context` text,
	`run_id` text,
	`coalesced_into_run_id` text,
	`requested_by_actor_type` text,
	`requested_by_actor_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `agent_wakeup_requests_company_status_idx` ON `agent_wakeup_requests` (`company_id`,`status`);
CREATE INDEX `agent_wakeup_requests_agent_idx` ON `agent_wakeup_requests` (`agent_id`,`status`);
