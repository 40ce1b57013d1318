// Builds the `opencode run` invocation: the binary, its flags, and the inline config the harness enforces.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ModelRef } from "./model-id.ts";
import { isRecord } from "../util/is-record.ts";

/** Fixed, so OpenCode skips its separate title-generation LLM call (which is recorded nowhere). */
export const RUN_TITLE = "openeval candidate run";

/** The pinned `opencode-ai` package's binary (a compiled Bun executable). */
export function resolveOpenCodeBinary(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("opencode-ai/package.json")), "bin", "opencode.exe");
}

/**
 * `--format json` gives one event per line; `--print-logs` sends the full log to stderr (the log file is
 * incomplete); `--thinking` adds reasoning events; `--dir` fixes the project dir (without it `run` trusts $PWD);
 * `--title` skips the title call; `--pure` skips external plugins; `--agent` selects an agent variant's agent. The prompt goes on stdin, verbatim.
 */
export function buildRunArgs(workspace: string, model: ModelRef, agent?: string): string[] {
  const args = ["run", "--pure", "--format", "json", "--dir", workspace, "-m", model.id];
  args.push("--title", RUN_TITLE, "--print-logs", "--thinking");
  // 1.18.33 has `--variant` ("provider-specific reasoning effort, e.g. high, max, minimal").
  if (model.variant) args.push("--variant", model.variant);
  if (agent !== undefined) args.push("--agent", agent);
  return args;
}

/**
 * Permissions that never resolve to "ask". In `run` mode an "ask" is auto-rejected and the session *stops* with
 * exit 0, so the run would look completed while the agent was cut off mid-task.
 * - doom_loop: OpenCode asks after three identical tool calls; loops are the harness's job (timeout, maxCostUSD,
 *   maxTokens, maxSteps).
 * - read: the default asks for `*.env*` files, which an eval workspace may well contain on purpose.
 */
const NEVER_ASK = { doom_loop: "allow", read: "allow" } as const;

/** Where OpenCode's own file tools may go outside the workspace (its `external_directory` permission). */
export interface FileToolReach {
  /** Folders the agent's commands use too (the container's /tmp and the tool user's HOME). */
  shared: string[];
  /** OpenCode's own files (database, config, logs): denied even when a benchmark allows more. */
  private: string[];
  /**
   * Folders inside the private ones that OpenCode itself loads instructions, skills and agents from (its config
   * folder): its own loading obeys the same rule, so they stay open. They hold a variant's setup, never a secret.
   */
  loaded?: string[];
}

/**
 * The config passed as OPENCODE_CONFIG_CONTENT: the benchmark's config, plus what the harness enforces (no workspace
 * snapshots, no sharing, no self-update, no "ask"). An author's own "ask" becomes "deny": nobody can answer it.
 * OpenCode's file tools (read, edit, write, glob, grep) are denied paths outside the workspace unless the benchmark
 * sets its own `external_directory`; OpenCode's private folders (but its config folder, which its own loading of
 * instructions and skills needs) and /proc stay denied either way. OpenCode applies
 * the same rule to path arguments of `cd`, `cat`, `cp`, `mv`, `rm`, `mkdir`, `touch`, `chmod` in bash commands.
 */
export function buildConfigContent(config: Record<string, unknown>, reach: FileToolReach): string {
  const authored = isRecord(config.permission) ? config.permission : {};
  const outside = { "*": "deny", ...Object.fromEntries(reach.shared.map((folder) => [join(folder, "*"), "allow"])) };
  const merged: Record<string, unknown> = { ...NEVER_ASK, external_directory: outside, ...authored };
  const chosen = merged.external_directory;
  // Last match wins in OpenCode's rules, so the enforced denials come last.
  const denied = Object.fromEntries([...reach.private, "/proc"].map((folder) => [join(folder, "*"), "deny"]));
  const loaded = Object.fromEntries((reach.loaded ?? []).map((folder) => [join(folder, "*"), "allow"]));
  merged.external_directory = { ...(isRecord(chosen) ? chosen : { "*": chosen }), ...denied, ...loaded };
  const permission = replaceAsk(merged);
  return JSON.stringify({ ...config, snapshot: false, share: "disabled", autoupdate: false, permission });
}

function replaceAsk(value: unknown): unknown {
  if (value === "ask") return "deny";
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceAsk(item)]));
}
