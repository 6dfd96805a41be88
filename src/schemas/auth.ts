// Session, profile and CLI-auth schemas.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "./common";
import { CLI_AUTH_CHALLENGE_STATUSES } from "../db/schema/cli-auth";

export const ProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    slug: z.string(),
    isInstanceAdmin: z.boolean(),
    companyIds: z.array(z.string()),
    authSource: z.enum(["local_implicit", "session", "board_key"]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Profile");

export const UpdateProfileSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    image: z.string().url().max(2048).nullable().optional(),
  })
  .refine((v) => v.name !== undefined || v.image !== undefined, { message: "name or image is required" })
  .openapi("UpdateProfile");

export const CompanyUserProfileSchema = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), slug: z.string(), image: z.string().nullable(), email: z.string().nullable() }),
    membership: z.object({ id: z.string(), membershipRole: z.string(), status: z.string(), createdAt: Timestamp }),
    stats: z.object({ activityCount: z.number().int(), assignedOpenIssueCount: z.number().int() }),
  })
  .openapi("CompanyUserProfile");

export const SessionSchema = z
  .object({
    session: z.object({ id: z.string(), userId: z.string(), expiresAt: z.string().nullable() }).passthrough(),
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }).passthrough(),
  })
  .nullable()
  .openapi("Session");

export const CreateChallengeSchema = z
  .object({
    clientName: z.string().trim().min(1).max(200).default("cli").openapi({ description: "Shown to the approving user" }),
    keyName: z.string().trim().min(1).max(200).optional().openapi({ description: "Name for the board API key to mint" }),
  })
  .openapi("CreateCliChallenge");

export const ChallengeSchema = z
  .object({
    id: z.string(),
    // A pending or approved challenge past expiresAt reads as `expired`.
    status: z.enum([...CLI_AUTH_CHALLENGE_STATUSES, "expired"]),
    userCode: z.string().openapi({ description: "Code the user confirms when approving" }),
    clientName: z.string(),
    expiresAt: Timestamp,
    intervalSec: z.number().int().openapi({ description: "Suggested polling interval" }),
    verificationPath: z.string().openapi({ description: "Where the user approves (POST .../approve with the user code)" }),
    createdAt: Timestamp,
  })
  .openapi("CliChallenge");

export const CreatedChallengeSchema = ChallengeSchema.extend({
  pollSecret: z.string().openapi({ description: "Returned once: send it as X-Challenge-Secret when polling or cancelling" }),
  approvalUrl: z.string().openapi({
    description:
      "The board console page where a signed-in board user sees the user code and approves or cancels (absolute: the public base URL, else the request's origin)",
  }),
}).openapi("CreatedCliChallenge");

export const PolledChallengeSchema = ChallengeSchema.extend({
  boardApiKey: z
    .object({ id: z.string(), token: z.string(), expiresAt: Timestamp })
    .optional()
    .openapi({ description: "Present exactly once: on the first poll with the secret after approval" }),
}).openapi("PolledCliChallenge");

export const ApproveChallengeSchema = z.object({ userCode: z.string().trim().min(1).max(20) }).openapi("ApproveCliChallenge");

export const CliMeSchema = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    companyIds: z.array(z.string()),
    isInstanceAdmin: z.boolean(),
    authSource: z.enum(["local_implicit", "session", "board_key"]),
    keyId: z.string().nullable(),
  })
  .openapi("CliMe");

export const RevokedSchema = z.object({ revoked: z.literal(true), keyId: z.string() }).openapi("RevokedKey");
