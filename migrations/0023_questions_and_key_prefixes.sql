-- Questions agents ask people on an issue (src/db/schema/questions.ts), and a short prefix of each
-- new agent API key (to recognise a key in the list; older keys have none).
CREATE TABLE `issue_questions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `issue_id` text NOT NULL,
  `asked_by_agent_id` text NOT NULL,
  `run_id` text,
  `asked_of_user_id` text,
  `prompt` text NOT NULL,
  `options` text NOT NULL,
  `allow_free_text` integer NOT NULL,
  `blocks_issue` integer NOT NULL,
  `status_before` text,
  `status` text NOT NULL,
  `answer_option_id` text,
  `answer_text` text,
  `answered_by_user_id` text,
  `answered_at` text,
  `answer_comment_id` text,
  `cancelled_at` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE INDEX `issue_questions_issue_idx` ON `issue_questions` (`issue_id`,`created_at`);
CREATE INDEX `issue_questions_company_status_idx` ON `issue_questions` (`company_id`,`status`,`created_at`);
ALTER TABLE `agent_api_keys` ADD `token_prefix` text;
