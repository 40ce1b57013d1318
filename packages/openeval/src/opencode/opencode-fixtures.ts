// Test fixtures for driving real OpenCode runs against the control model: a git workspace, the provider config for
// a set of controls, and a pass-through proxy that keeps every request body (the control server's log does not).

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ControlFile, ControlServer } from "../../../control-model/src/index.ts";

export const CONTROL_COST = { input: 1, output: 2 };

/** Inline OpenCode config with one `control/<name>` model per control. */
export function controlConfig(baseURL: string, names: string[]): Record<string, unknown> {
  const models = Object.fromEntries(
    names.map((name) => [
      name,
      { name, tool_call: true, limit: { context: 128000, output: 8192 }, cost: CONTROL_COST },
    ]),
  );
  return { provider: { control: { npm: "@ai-sdk/openai-compatible", options: { baseURL, apiKey: "control" }, models } } };
}

/** A fresh git repository with one commit (so OpenCode's upward config walk stops at it). */
export async function createGitWorkspace(dir: string, files: Record<string, string> = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await Bun.write(join(dir, name), content);
  const git = (...args: string[]) =>
    Bun.spawnSync(["git", "-c", "user.email=test@openeval", "-c", "user.name=openeval", ...args], { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  const commit = git("commit", "-q", "--allow-empty", "-m", "seed");
  if (commit.exitCode !== 0) throw new Error(`git commit failed: ${commit.stderr.toString()}`);
  return dir;
}

export interface RecordingProxy {
  /** Base URL to give OpenCode instead of `server.baseURL(evalId)`. */
  baseURL: string;
  /** Every chat-completions request body OpenCode sent, in order. */
  bodies: { messages: { role: string; content: unknown }[] }[];
  close(): Promise<void>;
}

export function startRecordingProxy(server: ControlServer, evalId: string): RecordingProxy {
  const bodies: RecordingProxy["bodies"] = [];
  const upstream = server.baseURL(evalId);
  const proxy = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname.replace(/^\/v1/, "");
      const body = req.method === "POST" ? await req.text() : undefined;
      if (body) bodies.push(JSON.parse(body));
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.delete("content-length");
      return fetch(upstream + path, { method: req.method, headers, body, signal: req.signal });
    },
  });
  return { baseURL: `http://127.0.0.1:${proxy.port}/v1`, bodies, close: () => proxy.stop(true) };
}

/** The system prompt(s) of a request, as one string. */
export function systemText(body: RecordingProxy["bodies"][number]): string {
  return body.messages
    .filter((message) => message.role === "system")
    .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)))
    .join("\n");
}

export type { ControlFile };
