-- Run lifecycle events (run.queued, run.started, run.finished), written by triggers in the same
-- transaction as the run's insert or status change — whichever code path makes it (a wake-up, the
-- dispatcher, a completion, a cancel, a pause or a budget stop) — with one queued delivery per
-- matching enabled webhook subscription (the same matching as src/domain/events/outbox.ts).
CREATE TRIGGER `run_events_on_insert` AFTER INSERT ON `heartbeat_runs`
WHEN NEW.`status` IN ('queued', 'running')
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  VALUES (
    lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
    NEW.`company_id`,
    CASE NEW.`status` WHEN 'queued' THEN 'run.queued' ELSE 'run.started' END,
    'system', 'system', 'run', NEW.`id`,
    json_object('agentId', NEW.`agent_id`, 'reason', NEW.`reason`, 'invocationSource', NEW.`invocation_source`, 'issueId', NEW.`issue_id`, 'adapterType', NEW.`adapter_type`),
    NEW.`updated_at`
  );
  INSERT INTO `webhook_deliveries` (`id`, `company_id`, `subscription_id`, `event_id`, `event_seq`, `event_type`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`)
  SELECT
    lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
    s.`company_id`, s.`id`, e.`id`, e.`seq`, e.`type`, 'pending', 0, e.`occurred_at`, e.`occurred_at`, e.`occurred_at`
  FROM `company_events` e, `webhook_subscriptions` s
  WHERE e.`seq` = last_insert_rowid() AND s.`company_id` = NEW.`company_id` AND s.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(s.`events`) p WHERE p.value = '*' OR p.value = e.`type` OR (substr(p.value, -2) = '.*' AND substr(e.`type`, 1, length(p.value) - 1) = substr(p.value, 1, length(p.value) - 1)));
END;

CREATE TRIGGER `run_events_on_status` AFTER UPDATE OF `status` ON `heartbeat_runs`
WHEN OLD.`status` <> NEW.`status` AND NEW.`status` IN ('running', 'succeeded', 'failed', 'cancelled', 'timed_out')
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  VALUES (
    lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
    NEW.`company_id`,
    CASE NEW.`status` WHEN 'running' THEN 'run.started' ELSE 'run.finished' END,
    'system', 'system', 'run', NEW.`id`,
    CASE NEW.`status` WHEN 'running'
      THEN json_object('agentId', NEW.`agent_id`, 'adapterType', NEW.`adapter_type`, 'issueId', NEW.`issue_id`, 'retryCount', NEW.`retry_count`)
      ELSE json_object('agentId', NEW.`agent_id`, 'status', NEW.`status`, 'errorCode', NEW.`error_code`, 'issueId', NEW.`issue_id`)
    END,
    NEW.`updated_at`
  );
  INSERT INTO `webhook_deliveries` (`id`, `company_id`, `subscription_id`, `event_id`, `event_seq`, `event_type`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`)
  SELECT
    lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
    s.`company_id`, s.`id`, e.`id`, e.`seq`, e.`type`, 'pending', 0, e.`occurred_at`, e.`occurred_at`, e.`occurred_at`
  FROM `company_events` e, `webhook_subscriptions` s
  WHERE e.`seq` = last_insert_rowid() AND s.`company_id` = NEW.`company_id` AND s.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(s.`events`) p WHERE p.value = '*' OR p.value = e.`type` OR (substr(p.value, -2) = '.*' AND substr(e.`type`, 1, length(p.value) - 1) = substr(p.value, 1, length(p.value) - 1)));
END;
