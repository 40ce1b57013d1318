// One eval run for the viewer: its record and judgments from the index, its evidence through readRecording()
// (the only reader of recordings), and its process logs from the eval run's folder.
import { dirname, join } from "node:path";
import { openCodeStatus } from "../recording/index.ts";
import { candidateName, creditsOf, describeFinding, describeOutcome, type EvalRun } from "../records/index.ts";
import { slotCredit } from "../results/index.ts";
import type { EvalRunDetail, EvalRunIntegrity, FileText, JudgeRunSummary } from "./api-types.ts";
import { listFolder, toFileText } from "./folder-files.ts";
import { flagFindings, toFindingViews } from "./integrity-findings.ts";
import type { OpenRecording, RecordingCache } from "./recording-cache.ts";
import type { RunIndex } from "./run-index.ts";
import { MAX_TEXT, toSessionInfos } from "./transcript.ts";
import { asClause, describeState } from "../util/words.ts";

const MAX_PATCH = 5 * MAX_TEXT;

/** The folder holding the eval run's evidence/ and logs/. */
export function evalRunFolder(index: RunIndex, evalRun: EvalRun): string {
  return evalRun.evidence
    ? dirname(join(index.directory, evalRun.evidence.directory))
    : join(index.directory, "eval-runs", evalRun.id);
}

export async function openEvalRunRecording(
  index: RunIndex,
  evalRun: EvalRun,
  recordings: RecordingCache,
): Promise<OpenRecording | { error: string }> {
  if (!evalRun.evidence) {
    return {
      error:
        evalRun.state === "running"
          ? "The candidate is still running: its recording is written when it finishes."
          : `No recording was kept (state ${describeState(evalRun.state)}${evalRun.error ? `: ${asClause(evalRun.error)}` : ""}).`,
    };
  }
  try {
    return await recordings.get(index.directory, evalRun.id, evalRun.evidence.hash);
  } catch (error) {
    return { error: `The recording could not be read: ${(error as Error).message}` };
  }
}

export async function readEvalRunDetail(
  index: RunIndex,
  evalRun: EvalRun,
  recordings: RecordingCache,
): Promise<EvalRunDetail> {
  const base: EvalRunDetail = {
    evalRun,
    candidate: candidateName(evalRun.slot),
    outcome: describeOutcome(evalRun),
    findings: (evalRun.findings ?? []).map((finding) => `The model ${describeFinding(finding)}`),
    judgeRuns: summarizeJudgeRuns(index, evalRun),
    evidenceError: null,
    prompt: evalRun.input.prompt,
    response: "",
    kind: null,
    rootSessionID: null,
    sessions: [],
    tools: [],
    diff: [],
    files: [],
    logs: listFolder(join(evalRunFolder(index, evalRun), "logs")),
    metrics: evalRun.metrics,
    integrity: null,
  };
  const recording = await openEvalRunRecording(index, evalRun, recordings);
  if ("error" in recording)
    return { ...base, evidenceError: recording.error, integrity: integrityOf(index, evalRun, base) };
  const { context } = recording;
  const transcripts = await recording.transcripts();
  const native = context.native.version !== null ? await context.recording.sessions() : [];
  const sessions = toSessionInfos(transcripts, native);
  const evidence = {
    prompt: context.prompt,
    response: context.response.text,
    kind: context.native.version !== null ? "candidate" : "constructed",
    rootSessionID: sessions.find((session) => session.parentID === null)?.id ?? null,
    sessions,
    tools: context.recording.tools().map((tool) => ({
      id: tool.id,
      sessionID: tool.sessionID ?? null,
      name: tool.name,
      status: openCodeStatus(tool.status),
      durationMs: tool.durationMs ?? null,
      error: tool.error ?? null,
    })),
    diff: (await context.workspace.patches()).map((file) =>
      file.patch.length > MAX_PATCH
        ? { ...file, patch: `${file.patch.slice(0, MAX_PATCH)}\n… (diff cut at ${MAX_PATCH} characters)\n` }
        : file,
    ),
    files: context.workspace.files("final"),
  } satisfies Partial<EvalRunDetail>;
  return { ...base, ...evidence, integrity: integrityOf(index, evalRun, evidence) };
}

/** The findings of the judgment the page counts (the slot's active one, else the eval run's latest), pointed at `page`. */
function integrityOf(
  index: RunIndex,
  evalRun: EvalRun,
  page: Pick<EvalRunDetail, "tools" | "diff">,
): EvalRunIntegrity | null {
  const judgeRunId = index.rowsById.get(evalRun.id)?.judgeRunId ?? null;
  const findings = judgeRunId === null ? undefined : index.judgeRuns.get(judgeRunId)?.integrityFindings;
  if (judgeRunId === null || findings === undefined) return null;
  return {
    judgeRunId,
    flag: flagFindings(findings, index.integritySettings),
    findings: toFindingViews(findings, index.integritySettings, { ...page, egressRefused: evalRun.egressRefused }),
  };
}

function summarizeJudgeRuns(index: RunIndex, evalRun: EvalRun): JudgeRunSummary[] {
  const activeId = index.rowsById.get(evalRun.id)?.judgeRunId ?? null;
  return (index.judgeRunsByEvalRun.get(evalRun.id) ?? []).map((judgeRun) => ({
    id: judgeRun.id,
    kind: judgeRun.kind,
    state: judgeRun.state,
    startedAt: judgeRun.startedAt,
    elapsedMs: judgeRun.elapsedMs,
    value: slotCredit(creditsOf(judgeRun)),
    error: judgeRun.error,
    active: judgeRun.id === activeId,
    decidedEarly: judgeRun.decidedEarly?.check ?? null,
  }));
}

/** A file of the final (or initial) workspace snapshot, verified by the recording reader. */
export async function readWorkspaceText(
  recording: OpenRecording,
  path: string,
  revision: "initial" | "final",
): Promise<FileText> {
  const entry = recording.context.workspace.files(revision).find((file) => file.path === path);
  // Over a snapshot limit: recorded by size and hash only, so there is nothing to show.
  if (entry?.kind === "file" && entry.omitted) return { path, text: null, bytes: entry.bytes, truncated: true };
  return toFileText(path, await recording.context.workspace.read(path, revision));
}
