-- Feedback traces: votes and remarks on agent output, shareable only with the company's consent.
CREATE TABLE `feedback_traces` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `target_type` text NOT NULL,
  `target_id` text NOT NULL,
  `issue_id` text,
  `project_id` text,
  `vote` text NOT NULL,
  `status` text NOT NULL,
  `comment` text,
  `payload` text,
  `shared` integer NOT NULL,
  `created_by_agent_id` text,
  `created_by_user_id` text,
  `created_at` text NOT NULL
);
CREATE INDEX `feedback_traces_company_created_idx` ON `feedback_traces` (`company_id`,`created_at`);
