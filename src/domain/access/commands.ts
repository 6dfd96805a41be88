// Every access command run in the company Durable Object.
import { inviteCommands } from "./invites";
import { joinRequestCommands } from "./join-requests";
import { memberCommands } from "./members";
import { livenessCommands } from "../instance/liveness";
import { inboxCommands } from "./inbox";

export const accessCommands = [...inviteCommands, ...joinRequestCommands, ...memberCommands, ...livenessCommands, ...inboxCommands];
