CREATE TABLE `goals` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`level` text NOT NULL,
	`status` text NOT NULL,
	`parent_id` text,
	`owner_agent_id` text,
	`is_company_default` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `goals`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `goals_company_idx` ON `goals` (`company_id`);--> statement-breakpoint
CREATE INDEX `goals_parent_idx` ON `goals` (`parent_id`);--> statement-breakpoint
CREATE TABLE `project_goals` (
	`project_id` text NOT NULL,
	`goal_id` text NOT NULL,
	`company_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`project_id`, `goal_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`goal_id`) REFERENCES `goals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `project_goals_goal_idx` ON `project_goals` (`goal_id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`url_key` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`goal_id` text,
	`lead_agent_id` text,
	`target_date` text,
	`color` text,
	`env` text,
	`execution_workspace_policy` text,
	`paused_at` text,
	`pause_reason` text,
	`archived_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `projects_company_idx` ON `projects` (`company_id`);--> statement-breakpoint
CREATE INDEX `projects_company_url_key_idx` ON `projects` (`company_id`,`url_key`);--> statement-breakpoint
CREATE TABLE `company_secret_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_id` text NOT NULL,
	`company_id` text NOT NULL,
	`version` integer NOT NULL,
	`material` text NOT NULL,
	`value_sha256` text NOT NULL,
	`external_ref` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`secret_id`) REFERENCES `company_secrets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_secret_versions_uq` ON `company_secret_versions` (`secret_id`,`version`);--> statement-breakpoint
CREATE TABLE `company_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`provider` text NOT NULL,
	`external_ref` text,
	`latest_version` integer NOT NULL,
	`description` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_secrets_name_uq` ON `company_secrets` (`company_id`,`name`);--> statement-breakpoint
CREATE INDEX `company_secrets_created_idx` ON `company_secrets` (`company_id`,`created_at`);