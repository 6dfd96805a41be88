// An instructions file (adapterConfig.instructionsFilePath) for CLIs that take it only as part of the
// prompt (Codex, Gemini, OpenCode, Cursor): its text leads a new session's prompt, followed by where
// it came from so relative references resolve.
import path from "node:path";

export function instructionsPreamble(instructions: { path: string; text: string }): string {
  return `${instructions.text.trim()}\n\nThe above agent instructions were loaded from ${instructions.path}. Resolve any relative file references from ${path.dirname(instructions.path)}/.`;
}

/** The prompt with the instructions leading it (a new session), or as it is. */
export const withInstructions = (prompt: string, instructions: { path: string; text: string } | null) =>
  instructions ? `${instructionsPreamble(instructions)}\n\n${prompt}` : prompt;
