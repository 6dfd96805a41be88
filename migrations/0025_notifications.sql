-- Notifications where people are (src/db/schema/notifications.ts): company channels, members'
-- preferences and web push subscriptions, the queue of notable events (written by the trigger
-- below with the event, whatever wrote it), deliveries, and the instance's VAPID keys (directory).
CREATE TABLE `notification_channels` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `kind` text NOT NULL,
  `name` text NOT NULL,
  `target` text NOT NULL,
  `settings` text NOT NULL,
  `events` text NOT NULL,
  `enabled` integer NOT NULL,
  `digest_hour` integer,
  `time_zone` text NOT NULL,
  `last_digest_on` text,
  `disabled_reason` text,
  `failing_since` text,
  `created_by_user_id` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `notification_channels_company_idx` ON `notification_channels` (`company_id`);

CREATE TABLE `notification_preferences` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `user_id` text NOT NULL,
  `topics` text NOT NULL,
  `email` text,
  `email_enabled` integer NOT NULL,
  `push_enabled` integer NOT NULL,
  `quiet_start` text,
  `quiet_end` text,
  `time_zone` text NOT NULL,
  `digest_hour` integer,
  `last_digest_on` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `notification_preferences_member_uq` ON `notification_preferences` (`company_id`,`user_id`);

CREATE TABLE `push_subscriptions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `user_id` text NOT NULL,
  `endpoint` text NOT NULL,
  `p256dh` text NOT NULL,
  `auth` text NOT NULL,
  `user_agent` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `push_subscriptions_endpoint_uq` ON `push_subscriptions` (`company_id`,`user_id`,`endpoint`);
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`company_id`,`user_id`);

CREATE TABLE `notification_queue` (
  `event_id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `event_seq` integer NOT NULL
);
CREATE INDEX `notification_queue_company_idx` ON `notification_queue` (`company_id`,`event_seq`);

CREATE TABLE `notification_deliveries` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `destination` text NOT NULL,
  `channel_id` text,
  `user_id` text,
  `push_subscription_id` text,
  `event_id` text,
  `dedupe_key` text NOT NULL,
  `message` text NOT NULL,
  `status` text NOT NULL,
  `attempts` integer NOT NULL,
  `next_attempt_at` text,
  `response_status` integer,
  `last_error` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `notification_deliveries_dedupe_uq` ON `notification_deliveries` (`company_id`,`dedupe_key`);
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`company_id`,`status`,`next_attempt_at`);
CREATE INDEX `notification_deliveries_channel_idx` ON `notification_deliveries` (`channel_id`,`created_at`);

CREATE TABLE `vapid_keys` (
  `id` integer PRIMARY KEY NOT NULL,
  `public_key` text NOT NULL,
  `private_key_ciphertext` text NOT NULL,
  `created_at` text NOT NULL
);

-- The notable events (src/domain/notifications/notable.ts decides the rest), queued only for a
-- company with somewhere to send them: an enabled channel, or a member with email or push on.
CREATE TRIGGER `notification_queue_on_event` AFTER INSERT ON `company_events`
WHEN (
    NEW.`type` IN ('approval.created', 'question.asked', 'budget.incident_opened', 'webhook.disabled', 'notification_channel.disabled')
    OR (NEW.`type` = 'issue.assigned' AND json_extract(NEW.`data`, '$.assigneeUserId') IS NOT NULL)
    OR (NEW.`type` = 'issue.updated' AND json_extract(NEW.`data`, '$.changes.status.to') = 'blocked')
    OR (NEW.`type` = 'run.finished' AND json_extract(NEW.`data`, '$.status') IN ('failed', 'timed_out'))
  )
  AND (
    EXISTS (SELECT 1 FROM `notification_channels` c WHERE c.`company_id` = NEW.`company_id` AND c.`enabled` = 1)
    OR EXISTS (SELECT 1 FROM `notification_preferences` p WHERE p.`company_id` = NEW.`company_id` AND (p.`email_enabled` = 1 OR p.`push_enabled` = 1))
  )
BEGIN
  INSERT OR IGNORE INTO `notification_queue` (`event_id`, `company_id`, `event_seq`) VALUES (NEW.`id`, NEW.`company_id`, NEW.`seq`);
END;
