CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`account_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`access_token` text,
	`refresh_token` text,
	`access_token_expires_at` integer,
	`refresh_token_expires_at` integer,
	`scope` text,
	`id_token` text,
	`password` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `board_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`last_used_at` text,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `board_api_keys_key_hash_unique` ON `board_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `board_api_keys_user_idx` ON `board_api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `cli_auth_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`poll_secret_hash` text NOT NULL,
	`user_code` text NOT NULL,
	`client_name` text NOT NULL,
	`status` text NOT NULL,
	`approved_by_user_id` text,
	`board_api_key_id` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instance_admins` (
	`user_id` text PRIMARY KEY NOT NULL,
	`granted_by_user_id` text,
	`via_bootstrap` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token` text NOT NULL,
	`expires_at` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_unique` ON `sessions` (`token`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`image` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`identifier` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer,
	`updated_at` integer
);
--> statement-breakpoint
CREATE TABLE `companies` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`pause_reason` text,
	`issue_prefix` text NOT NULL,
	`issue_counter` integer DEFAULT 0 NOT NULL,
	`budget_monthly_cents` integer DEFAULT 0 NOT NULL,
	`spent_monthly_cents` integer DEFAULT 0 NOT NULL,
	`spent_month` text,
	`require_board_approval_for_new_agents` integer DEFAULT false NOT NULL,
	`brand_color` text,
	`logo_asset_id` text,
	`feedback_sharing_consent` text,
	`archived_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_issue_prefix_unique` ON `companies` (`issue_prefix`);--> statement-breakpoint
CREATE TABLE `company_memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`principal_type` text NOT NULL,
	`principal_id` text NOT NULL,
	`membership_role` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_memberships_principal_uq` ON `company_memberships` (`company_id`,`principal_type`,`principal_id`);--> statement-breakpoint
CREATE INDEX `company_memberships_principal_idx` ON `company_memberships` (`principal_type`,`principal_id`);--> statement-breakpoint
CREATE TABLE `principal_permission_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`principal_type` text NOT NULL,
	`principal_id` text NOT NULL,
	`permission_key` text NOT NULL,
	`scope` text,
	`granted_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `principal_permission_grants_principal_idx` ON `principal_permission_grants` (`company_id`,`principal_type`,`principal_id`);--> statement-breakpoint
CREATE TABLE `agent_api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`name` text,
	`key_hash` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_api_keys_key_hash_unique` ON `agent_api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `agent_api_keys_agent_idx` ON `agent_api_keys` (`agent_id`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`url_key` text NOT NULL,
	`role` text NOT NULL,
	`title` text,
	`icon` text,
	`capabilities` text,
	`reports_to` text,
	`adapter_type` text NOT NULL,
	`adapter_config` text NOT NULL,
	`runtime_config` text NOT NULL,
	`budget_monthly_cents` integer DEFAULT 0 NOT NULL,
	`spent_monthly_cents` integer DEFAULT 0 NOT NULL,
	`spent_month` text,
	`status` text NOT NULL,
	`pause_reason` text,
	`permissions` text NOT NULL,
	`metadata` text,
	`last_heartbeat_at` text,
	`terminated_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reports_to`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `agents_company_status_idx` ON `agents` (`company_id`,`status`);--> statement-breakpoint
CREATE INDEX `agents_company_url_key_idx` ON `agents` (`company_id`,`url_key`);--> statement-breakpoint
CREATE INDEX `agents_reports_to_idx` ON `agents` (`reports_to`);--> statement-breakpoint
CREATE TABLE `activity_log` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`agent_id` text,
	`run_id` text,
	`details` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `activity_company_created_idx` ON `activity_log` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `activity_company_entity_idx` ON `activity_log` (`company_id`,`entity_type`,`entity_id`);--> statement-breakpoint
CREATE INDEX `activity_company_agent_idx` ON `activity_log` (`company_id`,`agent_id`);--> statement-breakpoint
CREATE TABLE `budget_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`scope_type` text NOT NULL,
	`scope_id` text NOT NULL,
	`metric` text NOT NULL,
	`window_kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`warn_percent` integer NOT NULL,
	`hard_stop_enabled` integer NOT NULL,
	`notify_enabled` integer NOT NULL,
	`is_active` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `budget_policies_scope_uq` ON `budget_policies` (`company_id`,`scope_type`,`scope_id`,`metric`,`window_kind`);--> statement-breakpoint
CREATE TABLE `assets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`object_key` text NOT NULL,
	`original_filename` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assets_company_idx` ON `assets` (`company_id`);--> statement-breakpoint
CREATE TABLE `issues` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`number` integer NOT NULL,
	`identifier` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`priority` text NOT NULL,
	`project_id` text,
	`goal_id` text,
	`parent_id` text,
	`assignee_agent_id` text,
	`assignee_user_id` text,
	`checkout_run_id` text,
	`execution_policy` text,
	`execution_workspace_id` text,
	`execution_workspace_preference` text,
	`execution_workspace_settings` text,
	`origin_kind` text DEFAULT 'manual' NOT NULL,
	`origin_id` text,
	`hidden_at` text,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issues_identifier_uq` ON `issues` (`identifier`);--> statement-breakpoint
CREATE UNIQUE INDEX `issues_company_number_uq` ON `issues` (`company_id`,`number`);--> statement-breakpoint
CREATE INDEX `issues_company_status_idx` ON `issues` (`company_id`,`status`);--> statement-breakpoint
CREATE INDEX `issues_company_assignee_idx` ON `issues` (`company_id`,`assignee_agent_id`);--> statement-breakpoint
CREATE INDEX `issues_company_project_idx` ON `issues` (`company_id`,`project_id`);--> statement-breakpoint
CREATE INDEX `issues_company_parent_idx` ON `issues` (`company_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `instance_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `scheduler_heartbeats` (
	`name` text PRIMARY KEY NOT NULL,
	`last_tick_at` text NOT NULL,
	`tick_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The implicit board user of local_trusted mode.
INSERT INTO `users` (`id`, `name`, `email`, `email_verified`, `image`, `created_at`, `updated_at`)
VALUES ('local-board', 'Local Board', 'local-board@localhost', 1, NULL, 0, 0);
