-- Issue documents (keyed markdown with immutable revisions), annotation threads,
-- issue attachments (bytes in R2) and work products; all feed the company artifact projection.
CREATE TABLE `issue_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`key` text NOT NULL,
	`title` text,
	`format` text DEFAULT 'markdown' NOT NULL,
	`latest_revision_id` text NOT NULL,
	`latest_revision_number` integer NOT NULL,
	`locked_at` text,
	`locked_by_agent_id` text,
	`locked_by_user_id` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`updated_by_agent_id` text,
	`updated_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_documents_issue_key_uq` ON `issue_documents` (`issue_id`,`key`);--> statement-breakpoint
CREATE INDEX `issue_documents_company_updated_idx` ON `issue_documents` (`company_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `issue_document_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`document_id` text NOT NULL,
	`revision_number` integer NOT NULL,
	`title` text,
	`format` text DEFAULT 'markdown' NOT NULL,
	`body` text NOT NULL,
	`change_summary` text,
	`base_revision_id` text,
	`restored_from_revision_id` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `issue_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_document_revisions_number_uq` ON `issue_document_revisions` (`document_id`,`revision_number`);--> statement-breakpoint
CREATE TABLE `document_annotation_threads` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`document_id` text NOT NULL,
	`created_revision_id` text NOT NULL,
	`anchor_revision_id` text NOT NULL,
	`anchor_start` integer NOT NULL,
	`anchor_end` integer NOT NULL,
	`quote` text NOT NULL,
	`prefix` text DEFAULT '' NOT NULL,
	`suffix` text DEFAULT '' NOT NULL,
	`anchor_state` text DEFAULT 'active' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`resolved_at` text,
	`resolved_by_agent_id` text,
	`resolved_by_user_id` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `issue_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_annotation_threads_document_idx` ON `document_annotation_threads` (`document_id`,`status`);--> statement-breakpoint
CREATE TABLE `document_annotation_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`body` text NOT NULL,
	`author_agent_id` text,
	`author_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `document_annotation_threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_annotation_comments_thread_idx` ON `document_annotation_comments` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `issue_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`object_key` text NOT NULL,
	`original_filename` text,
	`created_by_agent_id` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `issue_attachments_issue_idx` ON `issue_attachments` (`issue_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `issue_attachments_company_created_idx` ON `issue_attachments` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `work_products` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`url` text,
	`content_type` text,
	`preview_text` text,
	`created_by_agent_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `work_products_issue_idx` ON `work_products` (`issue_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `work_products_company_updated_idx` ON `work_products` (`company_id`,`updated_at`);
