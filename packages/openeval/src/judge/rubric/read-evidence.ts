// Reads what both judge tools need from a recording: every session's messages, workspace paths checked before use,
// and file text (binary content described, never dumped). All access goes through the JudgeContext.
import type { JudgeContext, NativeMessage, Revision } from "../../recording/index.ts";
import { UnsafePathError, toSafeRelativePath } from "../../util/relative-path.ts";

/** Every session's messages (root first), or one session's. */
export async function readMessages(
  context: JudgeContext,
  sessionID?: string,
): Promise<{ id: string; messages: NativeMessage[] }[]> {
  const sessions = await context.recording.sessions();
  const ids = sessionID === undefined ? sessions.map((session) => session.id) : [sessionID];
  if (sessionID !== undefined && !sessions.some((session) => session.id === sessionID)) {
    throw new Error(
      `no session "${sessionID}" in the recording; the sessions are ${sessions.map((session) => session.id).join(", ") || "(none)"}`,
    );
  }
  return Promise.all(ids.map(async (id) => ({ id, messages: await context.recording.messages(id) })));
}

/** A workspace file's text as the judge sees it; binary files and outside symlinks are described, not shown. */
export async function readFileText(context: JudgeContext, path: string, revision: Revision): Promise<string> {
  const entry = context.workspace.files(revision).find((candidate) => candidate.path === path);
  if (!entry)
    throw new Error(
      `"${path}" is not in the ${revision} workspace; list it with action "files" (revision "${revision}")`,
    );
  if (entry.kind === "symlink" && entry.target.startsWith("/"))
    return `(symlink to ${entry.target}, outside the workspace)`;
  if (entry.kind === "file" && entry.omitted)
    return `(${entry.bytes} bytes, sha256 ${entry.sha256}: ${entry.omitted.note})`;
  const text = decodeText(await context.workspace.read(path, revision));
  return text ?? `(binary file, ${entry.kind === "file" ? entry.bytes : "?"} bytes: not shown)`;
}

export function safePath(path: string): string {
  try {
    return toSafeRelativePath(path);
  } catch (error) {
    if (error instanceof UnsafePathError)
      throw new Error(`path ${JSON.stringify(path)} refused: it must stay inside the workspace (relative, no "..")`);
    throw error;
  }
}

/** Decodes UTF-8 text; null for binary content (a NUL byte or invalid UTF-8). */
export function decodeText(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
}
