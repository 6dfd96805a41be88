-- The runtime sessions an agent's runs resume, one per agent and task (src/db/schema/runs.ts).
CREATE TABLE `agent_runtime_sessions` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `agent_id` text NOT NULL,
  `adapter_type` text NOT NULL,
  `task_key` text NOT NULL,
  `session_id` text NOT NULL,
  `params` text NOT NULL,
  `run_id` text,
  `created_at` text NOT NULL,
  `updated_at` text NOT NULL
);
CREATE UNIQUE INDEX `agent_runtime_sessions_agent_task_uq` ON `agent_runtime_sessions` (`agent_id`,`task_key`);
CREATE INDEX `agent_runtime_sessions_company_idx` ON `agent_runtime_sessions` (`company_id`,`agent_id`);
