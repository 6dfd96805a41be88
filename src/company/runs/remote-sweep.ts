// Stopping runs where they execute once they ended here (cancel, pause, timeout, finish): gateway
// runs are stopped remotely, agent loops abort their model call, runners are told run.cancel.
import { schema } from "../../db/client";
import { inIds } from "../../db/id-list";
import { agentLoopObject, gatewayRunObject } from "../client";
import type { DispatcherHost } from "./host";

/**
 * Runs handed out that are no longer running (cancelled, paused, timed out, finished): gateway
 * runs are stopped remotely, runners are told `run.cancel`; the object forgets them.
 */
export async function sweepRemoteRuns(host: Pick<DispatcherHost, "env" | "db" | "storage" | "runners">): Promise<void> {
  try {
    await sweep(host);
  } catch (err) {
    // Best effort: the next sweep (or the run's own deadline) catches what this one missed.
    console.error("sweeping remote runs failed", err);
  }
}

async function sweep(host: Pick<DispatcherHost, "env" | "db" | "storage" | "runners">): Promise<void> {
  const tracked = host.storage.remoteRuns.all();
  if (!tracked.length) return;
  const r = schema.heartbeatRuns;
  const rows = await host.db
    .select({ id: r.id, status: r.status })
    .from(r)
    .where(
      inIds(
        r.id,
        tracked.map((t) => t.runId),
      ),
    );
  const status = new Map(rows.map((row) => [row.id, row.status]));
  await Promise.all(
    tracked
      .filter((t) => status.get(t.runId) !== "running")
      .map(async (t) => {
        host.storage.remoteRuns.forget(t.runId);
        if (t.kind === "gateway")
          await gatewayRunObject(host.env, t.runId)
            .cancel()
            .catch((err) => console.error(`stopping gateway run ${t.runId} failed`, err));
        else if (t.kind === "loop")
          await agentLoopObject(host.env, t.runId)
            .cancel()
            .catch((err) => console.error(`stopping agent loop ${t.runId} failed`, err));
        else if (t.runnerId) host.runners.send(t.runnerId, { type: "run.cancel", runId: t.runId });
      }),
  );
}
