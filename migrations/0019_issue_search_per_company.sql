-- Issue search per company (replaces the shared trigram index `issue_search` of 0010).
--
-- Two contentless FTS5 tables hold company-scoped trigram terms: every 3-byte window of the
-- lowercased text (UTF-8 bytes; lower() folds ASCII letters, as LIKE does) becomes the term
--   <company id without dashes><field letter><the window's 6 hex digits>
-- e.g. `3f2a…9c` `d` `646574` for "det" in a description. A term belongs to one company and one
-- field, so its posting list holds only that company's rows of that field: a search reads its own
-- company's postings and never another company's. src/domain/issues/search.ts builds the same terms
-- for `q` and asks for rows holding all of them (every row containing q, and a few more: the rank
-- then checks the text itself). No positions are kept (detail = 'none'): a third of the size.
--   issue_search:         one row per issue field, rowid = issues.rowid * 4 + field
--                         (0 title `t`, 1 identifier `i`, 2 description `d`)
--   issue_comment_search: one row per comment, rowid = issue_comments.rowid (field `c`)
-- Triggers keep both in step with every path that writes issues or comments (commands, imports,
-- ON DELETE CASCADE). They cannot use CTEs, so the windows are counted with json_each over an array
-- of length(text) - 2 zeros: '[' || replace(hex(zeroblob(n - 3)), '00', '0,') || '0]'.

DROP TRIGGER IF EXISTS `issue_search_insert`;
DROP TRIGGER IF EXISTS `issue_search_update`;
DROP TRIGGER IF EXISTS `issue_search_delete`;
DROP TRIGGER IF EXISTS `issue_search_comment`;
DROP TABLE IF EXISTS `issue_search`;

CREATE VIRTUAL TABLE `issue_search` USING fts5(`terms`, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');
CREATE VIRTUAL TABLE `issue_comment_search` USING fts5(`terms`, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'none');

-- Backfill.
INSERT INTO `issue_search` (`rowid`, `terms`)
SELECT f.`id`, f.`terms` FROM (
	SELECT i.`rowid` * 4 + x.`n` AS `id`,
		(SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(i.`company_id`, '-', '') || x.`f` AS `p`,
					CAST(lower(CASE x.`n` WHEN 0 THEN i.`title` WHEN 1 THEN i.`identifier` ELSE i.`description` END) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	FROM `issues` i, (SELECT 0 AS `n`, 't' AS `f` UNION ALL SELECT 1, 'i' UNION ALL SELECT 2, 'd') x
) f WHERE f.`terms` IS NOT NULL;

INSERT INTO `issue_comment_search` (`rowid`, `terms`)
SELECT f.`id`, f.`terms` FROM (
	SELECT c.`rowid` AS `id`,
		(SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(c.`company_id`, '-', '') || 'c' AS `p`, CAST(lower(c.`body`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	FROM `issue_comments` c
) f WHERE f.`terms` IS NOT NULL;

-- Issues: insert indexes the three fields; an update re-indexes only a field whose text changed.
CREATE TRIGGER `issue_search_insert` AFTER INSERT ON `issues` FOR EACH ROW
BEGIN
	INSERT INTO `issue_search` (`rowid`, `terms`)
	SELECT NEW.`rowid` * 4 + x.`n`, x.`terms` FROM (
		SELECT x.`n`,
			(SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
				FROM (SELECT replace(NEW.`company_id`, '-', '') || x.`f` AS `p`, CAST(lower(x.`text`) AS BLOB) AS `b`) k,
					json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
				WHERE length(k.`b`) >= 3) AS `terms`
		FROM (SELECT 0 AS `n`, 't' AS `f`, NEW.`title` AS `text`
			UNION ALL SELECT 1, 'i', NEW.`identifier`
			UNION ALL SELECT 2, 'd', NEW.`description`) x
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_search_title` AFTER UPDATE OF `title` ON `issues` FOR EACH ROW WHEN NEW.`title` IS NOT OLD.`title`
BEGIN
	DELETE FROM `issue_search` WHERE `rowid` = OLD.`rowid` * 4;
	INSERT INTO `issue_search` (`rowid`, `terms`)
	SELECT NEW.`rowid` * 4, x.`terms` FROM (
		SELECT (SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(NEW.`company_id`, '-', '') || 't' AS `p`, CAST(lower(NEW.`title`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_search_identifier` AFTER UPDATE OF `identifier` ON `issues` FOR EACH ROW WHEN NEW.`identifier` IS NOT OLD.`identifier`
BEGIN
	DELETE FROM `issue_search` WHERE `rowid` = OLD.`rowid` * 4 + 1;
	INSERT INTO `issue_search` (`rowid`, `terms`)
	SELECT NEW.`rowid` * 4 + 1, x.`terms` FROM (
		SELECT (SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(NEW.`company_id`, '-', '') || 'i' AS `p`, CAST(lower(NEW.`identifier`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_search_description` AFTER UPDATE OF `description` ON `issues` FOR EACH ROW WHEN NEW.`description` IS NOT OLD.`description`
BEGIN
	DELETE FROM `issue_search` WHERE `rowid` = OLD.`rowid` * 4 + 2;
	INSERT INTO `issue_search` (`rowid`, `terms`)
	SELECT NEW.`rowid` * 4 + 2, x.`terms` FROM (
		SELECT (SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(NEW.`company_id`, '-', '') || 'd' AS `p`, CAST(lower(NEW.`description`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_search_delete` AFTER DELETE ON `issues` FOR EACH ROW
BEGIN
	DELETE FROM `issue_search` WHERE `rowid` IN (OLD.`rowid` * 4, OLD.`rowid` * 4 + 1, OLD.`rowid` * 4 + 2);
END;

-- Comments: one row each (comments are only added; an edit or a delete, also by cascade, is kept too).
CREATE TRIGGER `issue_comment_search_insert` AFTER INSERT ON `issue_comments` FOR EACH ROW
BEGIN
	INSERT INTO `issue_comment_search` (`rowid`, `terms`)
	SELECT NEW.`rowid`, x.`terms` FROM (
		SELECT (SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(NEW.`company_id`, '-', '') || 'c' AS `p`, CAST(lower(NEW.`body`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_comment_search_update` AFTER UPDATE OF `body` ON `issue_comments` FOR EACH ROW WHEN NEW.`body` IS NOT OLD.`body`
BEGIN
	DELETE FROM `issue_comment_search` WHERE `rowid` = OLD.`rowid`;
	INSERT INTO `issue_comment_search` (`rowid`, `terms`)
	SELECT NEW.`rowid`, x.`terms` FROM (
		SELECT (SELECT group_concat(k.`p` || hex(substr(k.`b`, j.`key` + 1, 3)), ' ')
			FROM (SELECT replace(NEW.`company_id`, '-', '') || 'c' AS `p`, CAST(lower(NEW.`body`) AS BLOB) AS `b`) k,
				json_each('[' || replace(hex(zeroblob(length(k.`b`) - 3)), '00', '0,') || '0]') j
			WHERE length(k.`b`) >= 3) AS `terms`
	) x WHERE x.`terms` IS NOT NULL;
END;

CREATE TRIGGER `issue_comment_search_delete` AFTER DELETE ON `issue_comments` FOR EACH ROW
BEGIN
	DELETE FROM `issue_comment_search` WHERE `rowid` = OLD.`rowid`;
END;
