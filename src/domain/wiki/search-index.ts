// The wiki's FTS5 search indexes as drizzle tables, for typed statements. They are virtual tables
// created by migrations/0018_plugins_wiki.sql (the schema-drift test skips virtual tables, so they
// are declared here rather than in src/db/schema): `rowid` is the page's or source's rowid.
import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const wikiPageSearch = sqliteTable("wiki_page_search", {
  rowid: integer("rowid").primaryKey(),
  title: text("title").notNull(),
  path: text("path").notNull(),
  body: text("body").notNull(),
});

export const wikiSourceSearch = sqliteTable("wiki_source_search", {
  rowid: integer("rowid").primaryKey(),
  title: text("title").notNull(),
  rawPath: text("raw_path").notNull(),
  body: text("body").notNull(),
});

/** bm25 with the title weighted over the path over the body (lower is better). */
export const pageRank = sql<number>`bm25(wiki_page_search, 5.0, 2.0, 1.0)`;
export const sourceRank = sql<number>`bm25(wiki_source_search, 5.0, 2.0, 1.0)`;
export const pageSnippet = sql<string>`snippet(wiki_page_search, 2, '**', '**', '…', 16)`;
export const sourceSnippet = sql<string>`snippet(wiki_source_search, 2, '**', '**', '…', 16)`;
/** The same window of a page's body as plain text (the company search shows no markup). */
export const pagePlainSnippet = sql<string>`snippet(wiki_page_search, 2, '', '', '…', 24)`;
