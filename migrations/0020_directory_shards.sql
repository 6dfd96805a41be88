-- The directory (src/db/shards.ts, README "Shards"): what a request needs before it knows its
-- company's database, kept in the `DB` binding; every company-scoped row lives on the company's
-- shard (`DB_SHARD_0 … DB_SHARD_{N-1}`, or `DB` itself when no shard is bound). Every database runs
-- these same migrations; the directory tables stay empty on shards.
--
-- 1. directory_companies: where each company lives (`shard` = the D1 binding name), its name,
--    issue prefix (unique across the instance: identifiers resolve through it) and status, and
--    the fence a move sets (writes answer 503 while `fenced_at` is set).
CREATE TABLE `directory_companies` (
	`id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`name` text NOT NULL,
	`issue_prefix` text NOT NULL,
	`status` text NOT NULL,
	`fenced_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `directory_companies_issue_prefix_uq` ON `directory_companies` (`issue_prefix`);
--> statement-breakpoint
CREATE INDEX `directory_companies_shard_idx` ON `directory_companies` (`shard`);
--> statement-breakpoint
-- 2. directory_memberships: board users' memberships (a caller's companies, before its request
--    reaches a shard). The shard's company_memberships rows are the truth; these follow them.
CREATE TABLE `directory_memberships` (
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`membership_role` text NOT NULL,
	`status` text NOT NULL,
	PRIMARY KEY (`company_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `directory_memberships_user_idx` ON `directory_memberships` (`user_id`, `status`);
--> statement-breakpoint
-- 3. directory_agent_keys: an agent API key's hash → its agent and company (and whether it still
--    authenticates: revoked, agent status).
CREATE TABLE `directory_agent_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`company_id` text NOT NULL,
	`agent_status` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE INDEX `directory_agent_keys_agent_idx` ON `directory_agent_keys` (`agent_id`);
--> statement-breakpoint
CREATE INDEX `directory_agent_keys_company_idx` ON `directory_agent_keys` (`company_id`);
--> statement-breakpoint
-- 4. directory_public_ids: public ids that name a company's row from outside (a routine
--    trigger's public webhook id).
CREATE TABLE `directory_public_ids` (
	`kind` text NOT NULL,
	`public_id` text NOT NULL,
	`company_id` text NOT NULL,
	PRIMARY KEY (`kind`, `public_id`)
);
--> statement-breakpoint
CREATE INDEX `directory_public_ids_company_idx` ON `directory_public_ids` (`company_id`);
--> statement-breakpoint
-- 5. directory_outbox: written by the triggers below on a shard, in the changing statement's own
--    transaction; whoever wrote the batch applies the rows to the directory (src/db/directory-sync.ts).
CREATE TABLE `directory_outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`company_id` text NOT NULL,
	`payload` text NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `directory_sync_company_update` AFTER UPDATE OF `name`, `issue_prefix`, `status` ON `companies`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('company', NEW.`id`, json_object('name', NEW.`name`, 'issuePrefix', NEW.`issue_prefix`, 'status', NEW.`status`, 'updatedAt', NEW.`updated_at`));
END;
--> statement-breakpoint
-- The directory's own stub rows of companies on other shards (foreign-key targets) announce nothing.
CREATE TRIGGER `directory_sync_company_delete` AFTER DELETE ON `companies`
WHEN NOT EXISTS (SELECT 1 FROM `directory_companies` WHERE `id` = OLD.`id` AND `shard` <> 'DB')
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`) VALUES ('company_deleted', OLD.`id`, '{}');
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_membership_insert` AFTER INSERT ON `company_memberships` WHEN NEW.`principal_type` = 'user'
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('membership', NEW.`company_id`, json_object('userId', NEW.`principal_id`, 'role', NEW.`membership_role`, 'status', NEW.`status`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_membership_update` AFTER UPDATE ON `company_memberships` WHEN NEW.`principal_type` = 'user'
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('membership', NEW.`company_id`, json_object('userId', NEW.`principal_id`, 'role', NEW.`membership_role`, 'status', NEW.`status`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_membership_delete` AFTER DELETE ON `company_memberships` WHEN OLD.`principal_type` = 'user'
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('membership', OLD.`company_id`, json_object('userId', OLD.`principal_id`, 'role', OLD.`membership_role`, 'status', 'deleted'));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_agent_key_insert` AFTER INSERT ON `agent_api_keys`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('agent_key', NEW.`company_id`, json_object('keyHash', NEW.`key_hash`, 'keyId', NEW.`id`, 'agentId', NEW.`agent_id`,
    'agentStatus', (SELECT `status` FROM `agents` WHERE `id` = NEW.`agent_id`), 'revokedAt', NEW.`revoked_at`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_agent_key_update` AFTER UPDATE OF `revoked_at` ON `agent_api_keys`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('agent_key', NEW.`company_id`, json_object('keyHash', NEW.`key_hash`, 'keyId', NEW.`id`, 'agentId', NEW.`agent_id`,
    'agentStatus', (SELECT `status` FROM `agents` WHERE `id` = NEW.`agent_id`), 'revokedAt', NEW.`revoked_at`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_agent_key_delete` AFTER DELETE ON `agent_api_keys`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`) VALUES ('agent_key_deleted', OLD.`company_id`, json_object('keyHash', OLD.`key_hash`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_agent_status` AFTER UPDATE OF `status` ON `agents` WHEN NEW.`status` IS NOT OLD.`status`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('agent_status', NEW.`company_id`, json_object('agentId', NEW.`id`, 'agentStatus', NEW.`status`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_public_trigger_insert` AFTER INSERT ON `routine_triggers` WHEN NEW.`public_id` IS NOT NULL
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('public_id', NEW.`company_id`, json_object('kind', 'routine_trigger', 'publicId', NEW.`public_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_public_trigger_update` AFTER UPDATE OF `public_id` ON `routine_triggers` WHEN NEW.`public_id` IS NOT OLD.`public_id`
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  SELECT 'public_id_deleted', OLD.`company_id`, json_object('kind', 'routine_trigger', 'publicId', OLD.`public_id`) WHERE OLD.`public_id` IS NOT NULL;
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  SELECT 'public_id', NEW.`company_id`, json_object('kind', 'routine_trigger', 'publicId', NEW.`public_id`) WHERE NEW.`public_id` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `directory_sync_public_trigger_delete` AFTER DELETE ON `routine_triggers` WHEN OLD.`public_id` IS NOT NULL
BEGIN
  INSERT INTO `directory_outbox` (`kind`, `company_id`, `payload`)
  VALUES ('public_id_deleted', OLD.`company_id`, json_object('kind', 'routine_trigger', 'publicId', OLD.`public_id`));
END;
--> statement-breakpoint
-- Backfill: a database that held everything so far is the directory and the shard (`DB`) of the
-- companies it holds (on a fresh shard these select nothing).
INSERT INTO `directory_companies` (`id`, `shard`, `name`, `issue_prefix`, `status`, `created_at`, `updated_at`)
SELECT `id`, 'DB', `name`, `issue_prefix`, `status`, `created_at`, `updated_at` FROM `companies`;
--> statement-breakpoint
INSERT INTO `directory_memberships` (`company_id`, `user_id`, `membership_role`, `status`)
SELECT `company_id`, `principal_id`, `membership_role`, `status` FROM `company_memberships` WHERE `principal_type` = 'user';
--> statement-breakpoint
INSERT INTO `directory_agent_keys` (`key_hash`, `key_id`, `agent_id`, `company_id`, `agent_status`, `revoked_at`)
SELECT k.`key_hash`, k.`id`, k.`agent_id`, k.`company_id`, a.`status`, k.`revoked_at` FROM `agent_api_keys` k JOIN `agents` a ON a.`id` = k.`agent_id`;
--> statement-breakpoint
INSERT INTO `directory_public_ids` (`kind`, `public_id`, `company_id`)
SELECT 'routine_trigger', `public_id`, `company_id` FROM `routine_triggers` WHERE `public_id` IS NOT NULL;
