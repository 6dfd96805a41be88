// The database a handler reads through: one place, so read routing (D1 sessions, replicas) is
// decided here and not in every route.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createDb, type Db } from "../db/client";

export const dbOf = (c: Context<AppEnv>): Db => createDb(c.env.DB);
