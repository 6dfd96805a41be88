// A run handed to a Durable Object that executes it away from the dispatcher (the remote gateway's
// GatewayRunObject, the edge agent's AgentLoopObject): started outside the serialised section; a
// start that fails ends the run as `adapter_refused`; one that succeeds is tracked as a remote run,
// given the service's own deadline past the object's timeout, and announced by a status event.
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import type { CommandContext } from "../../command";
import type { RemoteRun } from "../../storage";
import { endRunStatements, type RunRow } from "../../../domain/runs/lifecycle";
import { runEvent } from "../../../domain/runs/events";
import type { DispatcherHost } from "../host";

/** The service's own deadline past the object's timeout (the object ends the run first; this is the net). */
export const HAND_OFF_DEADLINE_SLACK_SEC = 300;

const isoAfter = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

export interface HandOff {
  kind: Exclude<RemoteRun["kind"], "runner">;
  timeoutSec: number;
  /** Starts the run in its object (throws when it cannot). */
  start: () => Promise<void>;
  /** What could not start, for the refusal: "the agent loop", "the gateway run". */
  what: string;
  /** The status event once started. */
  started: string;
}

/** Hands `run` over; true when the run ended here (could not start). */
export async function handOffRun(host: DispatcherHost, ctx: CommandContext, run: RunRow, handOff: HandOff): Promise<boolean> {
  try {
    await handOff.start();
  } catch (err) {
    return host.serialise(async () => {
      await ctx.batch(
        endRunStatements(ctx, run.id, {
          status: "failed",
          errorCode: "adapter_refused",
          error: `Could not start ${handOff.what}: ${(err as Error)?.message ?? err}`,
        }),
      );
      return true;
    });
  }
  host.storage.remoteRuns.add({ runId: run.id, kind: handOff.kind, agentId: run.agentId, runnerId: null, startedAt: Date.now() });
  return host.serialise(async () => {
    const r = schema.heartbeatRuns;
    await ctx.batch([
      ctx.db
        .update(r)
        .set({ deadlineAt: isoAfter(ctx.now, handOff.timeoutSec + HAND_OFF_DEADLINE_SLACK_SEC), updatedAt: ctx.now })
        .where(and(eq(r.id, run.id), eq(r.status, "running"))),
      runEvent(ctx, run, "status", handOff.started),
    ]);
    return false;
  });
}
