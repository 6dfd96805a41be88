-- A run's event log lines on the company's event stream as `run.event` (the console's run page
-- follows a live transcript): written by the database with each line, whatever path wrote it (an
-- agent's events, a runner's transcript, the edge agent's loop). They are many: the delivery
-- trigger queues them only for subscriptions naming `run.event` exactly (not `*` or `run.*`;
-- eventPatternMatchSql in src/domain/events/catalogue.ts is the same rule).
DROP TRIGGER `company_events_queue_deliveries`;
CREATE TRIGGER `company_events_queue_deliveries` AFTER INSERT ON `company_events`
WHEN NEW.`type` <> 'ping'
BEGIN
  INSERT INTO `webhook_deliveries` (`id`, `company_id`, `subscription_id`, `event_id`, `event_seq`, `event_type`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`)
  SELECT lower(hex(randomblob(16))), s.`company_id`, s.`id`, NEW.`id`, NEW.`seq`, NEW.`type`, 'pending', 0, NEW.`occurred_at`, NEW.`occurred_at`, NEW.`occurred_at`
  FROM `webhook_subscriptions` s
  WHERE s.`company_id` = NEW.`company_id` AND s.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(s.`events`) p WHERE p.value = NEW.`type` OR (NEW.`type` NOT IN ('run.event') AND (p.value = '*' OR (substr(p.value, -2) = '.*' AND substr(NEW.`type`, 1, length(p.value) - 1) = substr(p.value, 1, length(p.value) - 1)))));
END;

CREATE TRIGGER `run_event_published` AFTER INSERT ON `heartbeat_run_events`
BEGIN
  INSERT INTO `company_events` (`id`, `company_id`, `type`, `actor_type`, `actor_id`, `subject_type`, `subject_id`, `data`, `occurred_at`)
  SELECT u.`id`, NEW.`company_id`, 'run.event', 'system', 'system', 'run', NEW.`run_id`,
    json_object('runId', NEW.`run_id`, 'seq', NEW.`seq`, 'kind', NEW.`kind`, 'message', substr(NEW.`message`, 1, 2000)),
    NEW.`created_at`
  FROM `sql_uuid` u;
END;
