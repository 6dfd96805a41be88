// CLI device-flow challenges and the board API keys they mint.
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { users } from "./auth";
import { inDirectory } from "./homes";

export const CLI_AUTH_CHALLENGE_STATUSES = ["pending", "approved", "consumed", "cancelled"] as const;

export const boardApiKeys = inDirectory(
  sqliteTable(
    "board_api_keys",
    {
      id: text("id").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: text("name").notNull(),
      keyHash: text("key_hash").notNull().unique(),
      lastUsedAt: text("last_used_at"),
      expiresAt: text("expires_at").notNull(),
      revokedAt: text("revoked_at"),
      createdAt: createdAt(),
    },
    (t) => [index("board_api_keys_user_idx").on(t.userId)],
  ),
);

export const cliAuthChallenges = inDirectory(
  sqliteTable("cli_auth_challenges", {
    id: text("id").primaryKey(),
    pollSecretHash: text("poll_secret_hash").notNull(),
    userCode: text("user_code").notNull(),
    clientName: text("client_name").notNull(),
    status: text("status", { enum: CLI_AUTH_CHALLENGE_STATUSES }).notNull(),
    approvedByUserId: text("approved_by_user_id"),
    boardApiKeyId: text("board_api_key_id"),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  }),
);
