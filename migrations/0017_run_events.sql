-- Outbound events written by the database itself, in the transaction of the change:
--  * every event (except a webhook's test `ping`, which the ping command queues for its one
--    subscription) queues one delivery per enabled webhook subscription of its company whose
--    `events` match its type (exact, `prefix.*` or `*`), whichever code wrote the event;
--  * run lifecycle events (run.queued, run.started, run.finished) are written when a run is
--    inserted or changes status — whatever path does it (a wake-up, the dispatcher, a completion,
--    a cancel, a pause or a budget stop).

-- A fresh UUID-shaped id per reference (used for single-row inserts).
CREATE VIEW `sql_uuid` AS
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
  || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))) AS `id`;

CREATE TRIGGER `company_events_queue_deliveries` AFTER INSERT ON `company_events`
WHEN NEW.`type` <> 'ping'
BEGIN
  INSERT INTO `webhook_deliveries` (`id`, `company_id`, `subscription_id`, `event_id`, `event_seq`, `event_type`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`)
  SELECT lower(hex(randomblob(16))), s.`company_id`, s.`id`, NEW.`id`, NEW.`seq`, NEW.`type`, 'pending', 0, NEW.`occurred_at`, NEW.`occurred_at`, NEW.`occurred_at`
  FROM `webhook_subscriptions` s
  WHERE s.`company_id` = NEW.`company_id` AND s.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(s.`events`) p WHERE p.value = '*' OR p.value = NEW.`type` OR (substr(p.value, -2) = '.*' AND substr(NEW.`type`, 1, length(p.value) - 1) = substr(p.value, 1, length(p.value) - 1)));
END;

CREATE TRIGGER `run_events_on_insert` AFTER INSERT ON `heartbeat_runs`
WHEN NEW.`status` IN ('queued', 'running')
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT u.`id`, NEW.`company_id`, CASE NEW.`status` WHEN 'queued' THEN 'run.queued' ELSE 'run.started' END, 'system', 'system', 'run', NEW.`id`,
    json_object('agentId', NEW.`agent_id`, 'reason', NEW.`reason`, 'invocationSource', NEW.`invocation_source`, 'issueId', NEW.`issue_id`, 'adapterType', NEW.`adapter_type`),
    NEW.`updated_at`
  FROM `sql_uuid` u;
END;

CREATE TRIGGER `run_events_on_status` AFTER UPDATE OF `status` ON `heartbeat_runs`
WHEN OLD.`status` <> NEW.`status` AND NEW.`status` IN ('running', 'succeeded', 'failed', 'cancelled', 'timed_out')
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT u.`id`, NEW.`company_id`, CASE NEW.`status` WHEN 'running' THEN 'run.started' ELSE 'run.finished' END, 'system', 'system', 'run', NEW.`id`,
    CASE NEW.`status` WHEN 'running'
      THEN json_object('agentId', NEW.`agent_id`, 'adapterType', NEW.`adapter_type`, 'issueId', NEW.`issue_id`, 'retryCount', NEW.`retry_count`)
      ELSE json_object('agentId', NEW.`agent_id`, 'status', NEW.`status`, 'errorCode', NEW.`error_code`, 'issueId', NEW.`issue_id`)
    END,
    NEW.`updated_at`
  FROM `sql_uuid` u;
END;
