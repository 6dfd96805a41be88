// Whether a process whose command line contains `marker` is running (pgrep -f).
import { execFileSync } from "node:child_process";

export const alive = (marker: string) => {
  try {
    return execFileSync("pgrep", ["-f", marker]).toString().trim().length > 0;
  } catch {
    return false;
  }
};
