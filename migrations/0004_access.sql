-- Access: invites, join requests, board-claim tokens, sidebar preferences and inbox dismissals.
CREATE TABLE `company_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`invite_type` text NOT NULL,
	`membership_role` text NOT NULL,
	`requires_approval` integer NOT NULL DEFAULT 0,
	`agent_name` text,
	`agent_role` text,
	`adapter_type` text,
	`note` text,
	`source` text NOT NULL DEFAULT 'api',
	`token_hash` text NOT NULL UNIQUE,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`revoked_by_user_id` text,
	`accepted_at` text,
	`accepted_by_user_id` text,
	`join_request_id` text,
	`created_by_user_id` text,
	`created_by_agent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `company_invites_company_idx` ON `company_invites` (`company_id`,`created_at`);
CREATE TABLE `join_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`invite_id` text NOT NULL,
	`request_type` text NOT NULL,
	`status` text NOT NULL,
	`membership_role` text NOT NULL,
	`requesting_user_id` text,
	`agent_name` text,
	`agent_role` text,
	`adapter_type` text,
	`capabilities` text,
	`message` text,
	`claim_secret_hash` text,
	`api_key_claimed_at` text,
	`agent_id` text,
	`decided_by_actor_type` text,
	`decided_by_actor_id` text,
	`decided_at` text,
	`decision_note` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `join_requests_company_status_idx` ON `join_requests` (`company_id`,`status`,`created_at`);
CREATE TABLE `board_claim_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL UNIQUE,
	`company_ids` text NOT NULL,
	`expires_at` text NOT NULL,
	`claimed_at` text,
	`claimed_by_user_id` text,
	`created_at` text NOT NULL
);
CREATE TABLE `sidebar_preferences` (
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`scope_key` text NOT NULL,
	`company_id` text REFERENCES `companies`(`id`) ON DELETE cascade,
	`preferences` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `scope_key`)
);
CREATE TABLE `inbox_dismissals` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL,
	`item_key` text NOT NULL,
	`dismissed_at` text NOT NULL
);
CREATE UNIQUE INDEX `inbox_dismissals_uq` ON `inbox_dismissals` (`company_id`,`user_id`,`item_key`);
