// Issue text limits: the request schemas, the portability parser and routine-made issues share them.
export const ISSUE_TITLE_MAX = 500;
export const ISSUE_DESCRIPTION_MAX = 100_000;
