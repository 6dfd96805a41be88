// Server CPU for the bench: user+system CPU time of a process tree (the wrangler dev process and
// its workerd children), read from /proc, so a measured operation's CPU per request is
// (CPU after − CPU before) / requests. Linux only; elsewhere it reports NaN.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** CPU milliseconds used so far by `rootPid` and every process below it. */
export function treeCpuMs(rootPid) {
  let pids;
  try {
    pids = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return NaN;
  }
  const stats = new Map(pids.map((pid) => [pid, stat(pid)]).filter(([, s]) => s));
  const inTree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, s] of stats) if (!inTree.has(pid) && inTree.has(s.ppid)) inTree.add(pid), (grew = true);
  }
  let ticks = 0;
  for (const pid of inTree) ticks += stats.get(pid)?.cpuTicks ?? 0;
  return ticks * TICK_MS;
}
