-- Guarded command writes and flat issue search.
-- 1. command_guards: the first statement of a command's write batch upserts row 1 with `held` =
--    its precondition (0 or 1); the CHECK fails when it does not hold, which rolls back the batch.
CREATE TABLE `command_guards` (
	`id` integer PRIMARY KEY NOT NULL,
	`held` integer NOT NULL CHECK (`held` = 1)
);
-- 2. issues.version: bumped by every UPDATE (trigger), so a command can write "only if the issue is
--    still as I read it".
ALTER TABLE `issues` ADD `version` integer DEFAULT 0 NOT NULL;
CREATE TRIGGER `issues_version_bump` AFTER UPDATE ON `issues` FOR EACH ROW WHEN NEW.`version` = OLD.`version`
BEGIN
	UPDATE `issues` SET `version` = OLD.`version` + 1 WHERE `rowid` = NEW.`rowid`;
END;
-- 3. issue_search: FTS5 trigram index (substring matching, case-insensitive) over title,
--    identifier, description and comment bodies; rowid = issues.rowid. Kept in step by triggers.
CREATE VIRTUAL TABLE `issue_search` USING fts5(`company_id`, `title`, `identifier`, `description`, `comments`, tokenize = 'trigram');
INSERT INTO `issue_search` (`rowid`, `company_id`, `title`, `identifier`, `description`, `comments`)
	SELECT i.`rowid`, i.`company_id`, i.`title`, i.`identifier`, COALESCE(i.`description`, ''),
		COALESCE((SELECT group_concat(c.`body`, char(10)) FROM `issue_comments` c WHERE c.`issue_id` = i.`id`), '')
	FROM `issues` i;
CREATE TRIGGER `issue_search_insert` AFTER INSERT ON `issues` FOR EACH ROW
BEGIN
	INSERT INTO `issue_search` (`rowid`, `company_id`, `title`, `identifier`, `description`, `comments`)
	VALUES (NEW.`rowid`, NEW.`company_id`, NEW.`title`, NEW.`identifier`, COALESCE(NEW.`description`, ''), '');
END;
CREATE TRIGGER `issue_search_update` AFTER UPDATE OF `title`, `identifier`, `description` ON `issues` FOR EACH ROW
BEGIN
	UPDATE `issue_search` SET `title` = NEW.`title`, `identifier` = NEW.`identifier`, `description` = COALESCE(NEW.`description`, '')
	WHERE `rowid` = NEW.`rowid`;
END;
CREATE TRIGGER `issue_search_delete` AFTER DELETE ON `issues` FOR EACH ROW
BEGIN
	DELETE FROM `issue_search` WHERE `rowid` = OLD.`rowid`;
END;
CREATE TRIGGER `issue_search_comment` AFTER INSERT ON `issue_comments` FOR EACH ROW
BEGIN
	UPDATE `issue_search` SET `comments` = `comments` || char(10) || NEW.`body`
	WHERE `rowid` = (SELECT `rowid` FROM `issues` WHERE `id` = NEW.`issue_id`);
END;
