// One judge run for the viewer: per-criterion scores with reasons and citations (and people's reviews of them), the
// returned JSON (on the record),
// and everything in its folder — the frozen judge.js, process logs, the rubric archive and the rubric judge's own
// session, verification receipts.
import { join, posix } from "node:path";
import { CODE_JUDGE_FILES, JUDGE_RUN_FOLDERS, RECEIPT_FILE, RUBRIC_FILES } from "../judge/index.ts";
import { VerificationReceiptSchema } from "../recording/index.ts";
import {
  candidateName,
  CitationSchema,
  JUDGE_FILES_MANIFEST,
  type CriterionScore,
  type JudgeRun,
  type PanelJudgment,
} from "../records/index.ts";
import { toSafeRelativePath } from "../util/relative-path.ts";
import { LatestReviews, type ReviewedScore } from "../summary/index.ts";
import type {
  CitationView,
  CriterionView,
  EvalRunRow,
  FileInfo,
  JudgeRunDetail,
  PanelJudgmentView,
  VerificationView,
} from "./api-types.ts";
import { listFolder, readFolderText } from "./folder-files.ts";
import { readJudgeSessionView } from "./read-judge-session.ts";

const codeFile = (file: string) => posix.join(JUDGE_RUN_FOLDERS.code, file);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A receipt wherever a judge kept one: `…/verification/<id>/receipt.json`. */
const RECEIPT = new RegExp(`^(.*/)?${escape(JUDGE_RUN_FOLDERS.verification)}/([^/]+)/${escape(RECEIPT_FILE)}$`);

/**
 * The detail as its folder holds it, with the reviews of its eval run applied to its criteria; the caller adds
 * `integrityError` and `reviewProblems` (it needs the eval run it judged and the store). `verify` names
 * what is wrong with one of the folder's files before it is read as evidence (the judge's session database).
 */
export async function readJudgeRunDetail(
  directory: string,
  judgeRun: JudgeRun,
  evalRun: EvalRunRow | null,
  verify: (path: string) => string | null = () => null,
  reviews: LatestReviews = new LatestReviews([]),
): Promise<Omit<JudgeRunDetail, "integrityError" | "reviewProblems">> {
  const folder = join(directory, judgeRun.directory);
  // files.json is the integrity manifest of the files listed, not one of them.
  const files = listFolder(folder).filter(
    (file) => file.path !== JUDGE_FILES_MANIFEST && ownsJudgeRunFile(judgeRun, file.path),
  );
  const text = async (path: string) =>
    files.some((file) => file.path === path) ? ((await readFolderText(folder, path))?.text ?? null) : null;
  const ofEvalRun = new LatestReviews(reviews.all.filter((review) => review.evalRunId === judgeRun.evalRunId));
  // Reviews decide a completed judgment's scores; a failed one's kept scores are shown as they were, never counted.
  const scored: Record<string, ReviewedScore> | null =
    judgeRun.state === "completed" ? ofEvalRun.apply(judgeRun).scores : judgeRun.scores;
  return {
    judgeRun,
    candidate: candidateName(judgeRun.slot),
    evalRun,
    keptOnly: judgeRun.scores === null && judgeRun.keptScores !== undefined,
    reviews: ofEvalRun.standings(judgeRun.state === "completed" ? [judgeRun] : []),
    criteria: criterionViews(scored ?? judgeRun.keptScores ?? {}),
    panel: (judgeRun.panel?.length ?? 0) > 1 ? judgeRun.panel!.map(toPanelJudgmentView) : [],
    files,
    source: await text(codeFile(CODE_JUDGE_FILES.source)),
    rubricSubmission: parseJson(await text(posix.join(JUDGE_RUN_FOLDERS.rubric, RUBRIC_FILES.submission))),
    logs: {
      stdout: await text(codeFile(CODE_JUDGE_FILES.stdout)),
      stderr: await text(codeFile(CODE_JUDGE_FILES.stderr)),
    },
    verifications: await findVerifications(files, text),
    session: await readJudgeSessionView(folder, judgeRun, files, verify),
  };
}

/** A judgment's criteria; a reviewed score carries its review (a panel's single judgments never do). */
function criterionViews(scores: Record<string, ReviewedScore | CriterionScore>): CriterionView[] {
  return Object.entries(scores).map(([id, score]) => ({
    id,
    value: score.value,
    source: score.source,
    reason: score.reason ?? null,
    citations: (score.evidence ?? []).map(toCitationView),
    measurements: score.measurements ?? null,
    ceiling: score.ceiling ?? null,
    review: "review" in score ? (score.review ?? null) : null,
  }));
}

function toPanelJudgmentView(judgment: PanelJudgment): PanelJudgmentView {
  return {
    model: judgment.model,
    repeat: judgment.repeat,
    state: judgment.state,
    error: judgment.error,
    costUSD: judgment.costUSD ?? null,
    gradedBy: judgment.gradedBy,
    directory: judgment.directory,
    criteria: criterionViews(judgment.scores ?? {}),
  };
}

/**
 * Whether `path` (relative to the judge run's folder) is the judge run's own file. A judgment decided early lives in
 * its earlyStop check's folder, beside the snapshot of the candidate it judged (`evidence/`): that snapshot is a
 * recording, read through readRecording() only, so it is neither listed, served nor exported as loose files.
 * Throws UnsafePathError for a path that leaves the folder.
 */
export function ownsJudgeRunFile(judgeRun: Pick<JudgeRun, "directory" | "decidedEarly">, path: string): boolean {
  const file = toSafeRelativePath(path);
  if (!judgeRun.decidedEarly) return true;
  const checkpoint = posix.relative(judgeRun.directory, judgeRun.decidedEarly.checkpoint.directory);
  return file !== checkpoint && !file.startsWith(`${checkpoint}/`);
}

export function toCitationView(raw: unknown): CitationView {
  const parsed = CitationSchema.safeParse(raw);
  if (!parsed.success) return { kind: "unknown", id: null, path: null, revision: null, quote: null, raw };
  const citation = parsed.data;
  return {
    kind: citation.kind,
    id: citation.id ?? null,
    path: citation.path ?? null,
    revision: citation.revision ?? null,
    quote: citation.quote ?? null,
    raw,
  };
}

/** Verification receipts wherever a judge kept them: `…/verification/<id>/{receipt.json, stdout.log, stderr.log, artifacts/…}`. */
async function findVerifications(
  files: readonly FileInfo[],
  text: (path: string) => Promise<string | null>,
): Promise<VerificationView[]> {
  const views: VerificationView[] = [];
  for (const file of files) {
    const match = RECEIPT.exec(file.path);
    if (!match) continue;
    const directory = `${match[1] ?? ""}${JUDGE_RUN_FOLDERS.verification}/${match[2]}`;
    const raw = parseJson(await text(file.path));
    const parsed = VerificationReceiptSchema.safeParse(raw);
    views.push({
      id: match[2]!,
      directory,
      receipt: parsed.success ? parsed.data : null,
      raw,
      stdout: await text(`${directory}/stdout.log`),
      stderr: await text(`${directory}/stderr.log`),
      artifacts: files.filter((candidate) => candidate.path.startsWith(`${directory}/artifacts/`)),
    });
  }
  return views;
}

/** JSON when it parses, else the text itself (shown as it is); null for no file. */
function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
