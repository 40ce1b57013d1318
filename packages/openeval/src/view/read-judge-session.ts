// A rubric judge's own OpenCode session for the judge-run page, converted as a candidate's transcript is
// (transcript.ts): its messages, tool calls and final answer, from the database archived in the judge run's folder.
import { join, posix } from "node:path";
import { JUDGE_RUN_FOLDERS, readJudgeSession, RUBRIC_FILES } from "../judge/index.ts";
import type { SessionDatabase } from "../recording/index.ts";
import type { JudgeRun } from "../records/index.ts";
import type { FileInfo, JudgeSessionView } from "./api-types.ts";
import { toSessionInfos, toTranscripts } from "./transcript.ts";

/** The archive files the session is read from, relative to the judge run's folder. */
export const JUDGE_SESSION_FILES = [RUBRIC_FILES.database, RUBRIC_FILES.session].map((file) =>
  posix.join(JUDGE_RUN_FOLDERS.rubric, file),
);

/**
 * Null when no rubric judge ran (the folder has no `rubric/`, yet). `verify` names what is wrong with one of the judge
 * run's files (changed since it finished), or null.
 */
export async function readJudgeSessionView(
  folder: string,
  judgeRun: Pick<JudgeRun, "state">,
  files: readonly FileInfo[],
  verify: (path: string) => string | null,
): Promise<JudgeSessionView | null> {
  if (!files.some((file) => file.path.startsWith(`${JUDGE_RUN_FOLDERS.rubric}/`))) return null;
  if (judgeRun.state === "running")
    return unavailable("The judge is still running: its session is shown when it finishes.");
  const problem = JUDGE_SESSION_FILES.filter((path) => files.some((file) => file.path === path))
    .map(verify)
    .find((found) => found !== null);
  if (problem) return unavailable(`Integrity error: ${problem}`);
  const session = readArchived(folder);
  if (typeof session === "string") return unavailable(session);
  if (!session || session.sessions.length === 0) {
    return unavailable(
      `OpenCode recorded no session for the judge: it never started one (see ${posix.join(JUDGE_RUN_FOLDERS.rubric, RUBRIC_FILES.stderr)}).`,
    );
  }
  const transcripts = await toTranscripts(session.sessions, async (sessionID) => session.messages.get(sessionID) ?? []);
  return {
    error: null,
    rootSessionID: session.rootSessionID,
    sessions: toSessionInfos(transcripts, session.sessions),
    tools: session.tools.map((tool) => ({
      id: tool.id,
      sessionID: tool.sessionID,
      name: tool.name,
      status: tool.status,
      durationMs: tool.durationMs,
      error: tool.error,
    })),
    response: session.response,
    transcripts: Object.fromEntries(transcripts),
  };
}

/** The archived session, null when there is none, or why it cannot be read. */
function readArchived(folder: string): SessionDatabase | null | string {
  try {
    return readJudgeSession(join(folder, JUDGE_RUN_FOLDERS.rubric));
  } catch (error) {
    return `The judge's session could not be read: ${(error as Error).message}`;
  }
}

function unavailable(error: string): JudgeSessionView {
  return { error, rootSessionID: null, sessions: [], tools: [], response: "", transcripts: {} };
}
