-- Issues: lock bookkeeping columns, comments, labels, blockers, run links, per-user read/archive state,
-- and the indexes every list filter uses.
ALTER TABLE `issues` ADD COLUMN `checked_out_at` text;
--> statement-breakpoint
ALTER TABLE `issues` ADD COLUMN `execution_locked_at` text;
--> statement-breakpoint
CREATE INDEX `issues_company_updated_idx` ON `issues` (`company_id`,`updated_at`);
--> statement-breakpoint
CREATE INDEX `issues_company_origin_idx` ON `issues` (`company_id`,`origin_kind`,`origin_id`);
--> statement-breakpoint
CREATE INDEX `issues_company_exec_ws_idx` ON `issues` (`company_id`,`execution_workspace_id`);
--> statement-breakpoint
CREATE INDEX `issues_company_assignee_user_idx` ON `issues` (`company_id`,`assignee_user_id`);
--> statement-breakpoint
CREATE INDEX `issues_company_created_by_user_idx` ON `issues` (`company_id`,`created_by_user_id`);
--> statement-breakpoint
CREATE INDEX `issues_company_created_by_agent_idx` ON `issues` (`company_id`,`created_by_agent_id`);
--> statement-breakpoint
CREATE INDEX `issues_checkout_run_idx` ON `issues` (`checkout_run_id`);
--> statement-breakpoint
CREATE INDEX `issues_goal_idx` ON `issues` (`goal_id`);
--> statement-breakpoint
CREATE TABLE `issue_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`body` text NOT NULL,
	`author_agent_id` text,
	`author_user_id` text,
	`run_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_comments_issue_created_idx` ON `issue_comments` (`issue_id`,`created_at`);
--> statement-breakpoint
CREATE INDEX `issue_comments_company_agent_idx` ON `issue_comments` (`company_id`,`author_agent_id`);
--> statement-breakpoint
CREATE INDEX `issue_comments_company_user_idx` ON `issue_comments` (`company_id`,`author_user_id`);
--> statement-breakpoint
CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`color` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_company_name_uq` ON `labels` (`company_id`,`name_key`);
--> statement-breakpoint
CREATE TABLE `issue_labels` (
	`issue_id` text NOT NULL,
	`label_id` text NOT NULL,
	`company_id` text NOT NULL,
	PRIMARY KEY(`issue_id`, `label_id`),
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_labels_label_idx` ON `issue_labels` (`label_id`);
--> statement-breakpoint
CREATE TABLE `issue_blockers` (
	`issue_id` text NOT NULL,
	`blocker_issue_id` text NOT NULL,
	`company_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`issue_id`, `blocker_issue_id`),
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocker_issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_blockers_blocker_idx` ON `issue_blockers` (`blocker_issue_id`);
--> statement-breakpoint
CREATE TABLE `issue_run_links` (
	`issue_id` text NOT NULL,
	`run_id` text NOT NULL,
	`company_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`issue_id`, `run_id`),
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_run_links_run_idx` ON `issue_run_links` (`run_id`);
--> statement-breakpoint
CREATE TABLE `issue_user_states` (
	`issue_id` text NOT NULL,
	`user_id` text NOT NULL,
	`company_id` text NOT NULL,
	`last_read_at` text,
	`inbox_archived_at` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`issue_id`, `user_id`),
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_user_states_user_idx` ON `issue_user_states` (`company_id`,`user_id`);
--> statement-breakpoint
-- The list's default order (priority rank, latest update, id) straight from an index: no sort of the company's issues.
CREATE INDEX `issues_company_priority_idx` ON `issues` (`company_id`, (CASE `priority` WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END), `updated_at` DESC, `id`);
