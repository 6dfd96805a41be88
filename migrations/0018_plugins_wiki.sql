-- Plugins and the knowledge wiki (src/db/schema/plugins.ts).
--  * plugins: instance-wide, one row per installed first-party plugin (status, version, manifest).
--  * wiki_*: company-scoped wiki metadata; page and source bodies are R2 objects
--    (companies/<id>/wiki/objects/<sha256>), their text is indexed in two FTS5 tables whose rowid
--    is the page's / source's rowid (written by the commands in the same batch as the row; the
--    delete triggers below keep them in step when a row goes, also by ON DELETE CASCADE).
--  * query sessions end with the run that answers them: triggers on heartbeat_runs (whatever path
--    queues, starts or ends the run) update the session and its operation and write the
--    wiki.query.* events in the run's own transaction.

CREATE TABLE `plugins` (
  `id` text PRIMARY KEY NOT NULL,
  `plugin_key` text NOT NULL,
  `package_name` text NOT NULL,
  `version` text NOT NULL,
  `status` text NOT NULL,
  `last_error` text,
  `manifest` text NOT NULL,
  `installed_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `plugins_plugin_key_uq` ON `plugins` (`plugin_key`);

CREATE TABLE `wiki_instances` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `wiki_id` text NOT NULL,
  `managed_agent_id` text,
  `managed_project_id` text,
  `managed_skill_ids` text NOT NULL,
  `managed_routine_ids` text NOT NULL,
  `bootstrapped_at` text NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `wiki_instances_company_wiki_uq` ON `wiki_instances` (`company_id`,`wiki_id`);

CREATE TABLE `wiki_spaces` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `wiki_id` text NOT NULL,
  `slug` text NOT NULL,
  `display_name` text NOT NULL,
  `access_scope` text NOT NULL,
  `status` text NOT NULL,
  `settings` text NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `wiki_spaces_company_wiki_slug_uq` ON `wiki_spaces` (`company_id`,`wiki_id`,`slug`);

CREATE TABLE `wiki_pages` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `space_id` text NOT NULL REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `path` text NOT NULL,
  `title` text NOT NULL,
  `page_type` text NOT NULL,
  `hash` text NOT NULL,
  `revision_id` text NOT NULL,
  `object_key` text NOT NULL,
  `size_bytes` integer NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `wiki_pages_space_path_uq` ON `wiki_pages` (`space_id`,`path`);
CREATE INDEX `wiki_pages_company_space_updated_idx` ON `wiki_pages` (`company_id`,`space_id`,`updated_at`);

CREATE TABLE `wiki_page_revisions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `space_id` text NOT NULL REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `page_id` text NOT NULL,
  `path` text NOT NULL,
  `change` text NOT NULL,
  `hash` text,
  `previous_hash` text,
  `object_key` text,
  `summary` text,
  `operation_id` text NOT NULL,
  `created_by_agent_id` text,
  `created_by_user_id` text,
  `run_id` text,
  `created_at` text NOT NULL
);
CREATE INDEX `wiki_page_revisions_page_idx` ON `wiki_page_revisions` (`page_id`,`created_at`);

CREATE TABLE `wiki_links` (
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `space_id` text NOT NULL REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `source_page_id` text NOT NULL REFERENCES `wiki_pages`(`id`) ON DELETE cascade,
  `target_path` text NOT NULL,
  PRIMARY KEY(`source_page_id`, `target_path`)
);
CREATE INDEX `wiki_links_space_target_idx` ON `wiki_links` (`space_id`,`target_path`);

CREATE TABLE `wiki_sources` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `space_id` text NOT NULL REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `raw_path` text NOT NULL,
  `title` text NOT NULL,
  `source_type` text NOT NULL,
  `url` text,
  `hash` text NOT NULL,
  `object_key` text NOT NULL,
  `size_chars` integer NOT NULL,
  `metadata` text,
  `created_by_agent_id` text,
  `created_by_user_id` text,
  `created_at` text NOT NULL
);
CREATE UNIQUE INDEX `wiki_sources_space_raw_path_uq` ON `wiki_sources` (`space_id`,`raw_path`);
CREATE INDEX `wiki_sources_company_space_created_idx` ON `wiki_sources` (`company_id`,`space_id`,`created_at`);

CREATE TABLE `wiki_operations` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `wiki_id` text NOT NULL,
  `space_id` text REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `operation_type` text NOT NULL,
  `status` text NOT NULL,
  `summary` text,
  `details` text,
  `issue_id` text,
  `run_id` text,
  `actor_type` text NOT NULL,
  `actor_id` text NOT NULL,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `wiki_operations_company_created_idx` ON `wiki_operations` (`company_id`,`created_at`);

CREATE TABLE `wiki_query_sessions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `space_id` text NOT NULL REFERENCES `wiki_spaces`(`id`) ON DELETE cascade,
  `operation_id` text NOT NULL,
  `question` text NOT NULL,
  `title` text NOT NULL,
  `issue_id` text,
  `run_id` text,
  `status` text NOT NULL,
  `answer` text,
  `filed_path` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `wiki_query_sessions_issue_idx` ON `wiki_query_sessions` (`issue_id`);

-- Full-text search over page and source text, ranked with bm25 (porter stemming: "deploys"
-- finds "deployment"). The company and space filters are on the joined row.
CREATE VIRTUAL TABLE `wiki_page_search` USING fts5(`title`, `path`, `body`, tokenize = 'porter unicode61');
CREATE VIRTUAL TABLE `wiki_source_search` USING fts5(`title`, `raw_path`, `body`, tokenize = 'porter unicode61');

CREATE TRIGGER `wiki_page_search_delete` AFTER DELETE ON `wiki_pages` FOR EACH ROW
BEGIN
  DELETE FROM `wiki_page_search` WHERE `rowid` = OLD.`rowid`;
END;
CREATE TRIGGER `wiki_source_search_delete` AFTER DELETE ON `wiki_sources` FOR EACH ROW
BEGIN
  DELETE FROM `wiki_source_search` WHERE `rowid` = OLD.`rowid`;
END;

-- A run of the query issue's assignee (the maintainer; not an agent merely mentioned on it) about a
-- running query session's issue: queued or started → wiki.query.progress.
CREATE TRIGGER `wiki_query_run_queued` AFTER INSERT ON `heartbeat_runs`
WHEN NEW.`issue_id` IS NOT NULL AND NEW.`agent_id` = (SELECT `assignee_agent_id` FROM `issues` WHERE `id` = NEW.`issue_id`)
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT (SELECT `id` FROM `sql_uuid`), s.`company_id`, 'wiki.query.progress', 'system', 'system', 'wiki_query', s.`id`,
    json_object('querySessionId', s.`id`, 'operationId', s.`operation_id`, 'issueId', NEW.`issue_id`, 'runId', NEW.`id`, 'runStatus', NEW.`status`),
    NEW.`updated_at`
  FROM `wiki_query_sessions` s WHERE s.`issue_id` = NEW.`issue_id` AND s.`company_id` = NEW.`company_id` AND s.`status` = 'running';
  UPDATE `wiki_operations` SET `run_id` = NEW.`id`, `updated_at` = NEW.`updated_at`
  WHERE `id` IN (SELECT `operation_id` FROM `wiki_query_sessions` WHERE `issue_id` = NEW.`issue_id` AND `company_id` = NEW.`company_id` AND `status` = 'running');
  UPDATE `wiki_query_sessions` SET `run_id` = NEW.`id`, `updated_at` = NEW.`updated_at`
  WHERE `issue_id` = NEW.`issue_id` AND `company_id` = NEW.`company_id` AND `status` = 'running';
END;

CREATE TRIGGER `wiki_query_run_started` AFTER UPDATE OF `status` ON `heartbeat_runs`
WHEN OLD.`status` <> NEW.`status` AND NEW.`status` = 'running' AND NEW.`issue_id` IS NOT NULL AND NEW.`agent_id` = (SELECT `assignee_agent_id` FROM `issues` WHERE `id` = NEW.`issue_id`)
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT (SELECT `id` FROM `sql_uuid`), s.`company_id`, 'wiki.query.progress', 'system', 'system', 'wiki_query', s.`id`,
    json_object('querySessionId', s.`id`, 'operationId', s.`operation_id`, 'issueId', NEW.`issue_id`, 'runId', NEW.`id`, 'runStatus', NEW.`status`),
    NEW.`updated_at`
  FROM `wiki_query_sessions` s WHERE s.`issue_id` = NEW.`issue_id` AND s.`company_id` = NEW.`company_id` AND s.`status` = 'running';
END;

-- The run ended: succeeded with an answer (result `answer`, else the run's summary) → answered;
-- anything else → failed. The event carries the answer (up to 4,000 characters; the session has it whole).
CREATE TRIGGER `wiki_query_run_finished` AFTER UPDATE OF `status` ON `heartbeat_runs`
WHEN OLD.`status` <> NEW.`status` AND NEW.`status` IN ('succeeded', 'failed', 'cancelled', 'timed_out') AND NEW.`issue_id` IS NOT NULL AND NEW.`agent_id` = (SELECT `assignee_agent_id` FROM `issues` WHERE `id` = NEW.`issue_id`)
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT (SELECT `id` FROM `sql_uuid`), s.`company_id`, CASE WHEN a.`answer` IS NOT NULL THEN 'wiki.query.answered' ELSE 'wiki.query.failed' END,
    'system', 'system', 'wiki_query', s.`id`,
    json_object('querySessionId', s.`id`, 'operationId', s.`operation_id`, 'issueId', NEW.`issue_id`, 'runId', NEW.`id`, 'runStatus', NEW.`status`,
      'answer', substr(a.`answer`, 1, 4000), 'errorCode', NEW.`error_code`),
    NEW.`updated_at`
  FROM `wiki_query_sessions` s,
    (SELECT CASE WHEN NEW.`status` = 'succeeded' THEN
        COALESCE(CASE WHEN json_valid(NEW.`result_json`) AND json_type(NEW.`result_json`, '$.answer') = 'text' THEN json_extract(NEW.`result_json`, '$.answer') END, NEW.`summary`)
      END AS `answer`) a
  WHERE s.`issue_id` = NEW.`issue_id` AND s.`company_id` = NEW.`company_id` AND s.`status` = 'running';
  UPDATE `wiki_operations` SET
    `status` = CASE WHEN NEW.`status` = 'succeeded' AND COALESCE(CASE WHEN json_valid(NEW.`result_json`) AND json_type(NEW.`result_json`, '$.answer') = 'text' THEN json_extract(NEW.`result_json`, '$.answer') END, NEW.`summary`) IS NOT NULL THEN 'succeeded' ELSE 'failed' END,
    `run_id` = NEW.`id`, `updated_at` = NEW.`updated_at`
  WHERE `id` IN (SELECT `operation_id` FROM `wiki_query_sessions` WHERE `issue_id` = NEW.`issue_id` AND `company_id` = NEW.`company_id` AND `status` = 'running');
  UPDATE `wiki_query_sessions` SET
    `answer` = CASE WHEN NEW.`status` = 'succeeded' THEN COALESCE(CASE WHEN json_valid(NEW.`result_json`) AND json_type(NEW.`result_json`, '$.answer') = 'text' THEN json_extract(NEW.`result_json`, '$.answer') END, NEW.`summary`) END,
    `status` = CASE WHEN NEW.`status` = 'succeeded' AND COALESCE(CASE WHEN json_valid(NEW.`result_json`) AND json_type(NEW.`result_json`, '$.answer') = 'text' THEN json_extract(NEW.`result_json`, '$.answer') END, NEW.`summary`) IS NOT NULL THEN 'answered' ELSE 'failed' END,
    `run_id` = NEW.`id`, `updated_at` = NEW.`updated_at`
  WHERE `issue_id` = NEW.`issue_id` AND `company_id` = NEW.`company_id` AND `status` = 'running';
END;
