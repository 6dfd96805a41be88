-- Project workspaces, environments, environment leases, execution workspaces and
-- workspace operations; at most one default goal per company.
CREATE UNIQUE INDEX `goals_company_default_uq` ON `goals` (`company_id`) WHERE `is_company_default` = 1;
CREATE TABLE `project_workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`project_id` text NOT NULL REFERENCES `projects`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`source_type` text NOT NULL,
	`cwd` text,
	`repo_url` text,
	`repo_ref` text,
	`default_ref` text,
	`visibility` text NOT NULL,
	`setup_command` text,
	`cleanup_command` text,
	`remote_provider` text,
	`remote_workspace_ref` text,
	`shared_workspace_key` text,
	`metadata` text,
	`runtime_config` text,
	`is_primary` integer DEFAULT false NOT NULL,
	`desired_state` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `project_workspaces_project_idx` ON `project_workspaces` (`project_id`,`created_at`);
CREATE INDEX `project_workspaces_company_idx` ON `project_workspaces` (`company_id`);
CREATE TABLE `environments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`description` text,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`labels` text NOT NULL,
	`max_concurrent_leases` integer NOT NULL,
	`last_probe_at` text,
	`last_probe_status` text,
	`last_probe_checks` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `environments_company_name_uq` ON `environments` (`company_id`,`name`);
CREATE TABLE `execution_workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`project_id` text REFERENCES `projects`(`id`) ON DELETE set null,
	`project_workspace_id` text REFERENCES `project_workspaces`(`id`) ON DELETE set null,
	`issue_id` text,
	`environment_id` text REFERENCES `environments`(`id`) ON DELETE set null,
	`mode` text NOT NULL,
	`status` text NOT NULL,
	`cwd` text,
	`branch` text,
	`base_ref` text,
	`desired_state` text NOT NULL,
	`runtime_services` text NOT NULL,
	`metadata` text,
	`opened_by_agent_id` text,
	`opened_by_user_id` text,
	`opened_at` text NOT NULL,
	`closed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `execution_workspaces_company_status_idx` ON `execution_workspaces` (`company_id`,`status`);
CREATE INDEX `execution_workspaces_issue_idx` ON `execution_workspaces` (`issue_id`);
CREATE INDEX `execution_workspaces_project_idx` ON `execution_workspaces` (`project_id`);
CREATE TABLE `environment_leases` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`environment_id` text NOT NULL REFERENCES `environments`(`id`) ON DELETE cascade,
	`execution_workspace_id` text REFERENCES `execution_workspaces`(`id`) ON DELETE set null,
	`issue_id` text,
	`agent_id` text,
	`run_id` text,
	`status` text NOT NULL,
	`acquired_at` text NOT NULL,
	`released_at` text,
	`expires_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `environment_leases_environment_idx` ON `environment_leases` (`environment_id`,`status`);
CREATE INDEX `environment_leases_workspace_idx` ON `environment_leases` (`execution_workspace_id`,`status`);
CREATE TABLE `workspace_operations` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`project_workspace_id` text REFERENCES `project_workspaces`(`id`) ON DELETE cascade,
	`execution_workspace_id` text REFERENCES `execution_workspaces`(`id`) ON DELETE cascade,
	`kind` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`args` text,
	`env` text,
	`status` text NOT NULL,
	`result` text,
	`requested_by_actor_type` text NOT NULL,
	`requested_by_actor_id` text NOT NULL,
	`run_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `workspace_operations_execution_idx` ON `workspace_operations` (`execution_workspace_id`,`created_at`);
CREATE INDEX `workspace_operations_project_ws_idx` ON `workspace_operations` (`project_workspace_id`,`created_at`);
