// Turns what a finished judge session left in its folder into the rubric source's outcome. Only the accepted
// submission file counts; the judge's free text is never scored (a failure quotes its last answer, to say why).
// Silent failures become errors.
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import type { OpenCodeOutcome } from "../../opencode/index.ts";
import type { SourceOutcome } from "../judge-source.ts";
import { JudgingError, normalizeJudgeOutput } from "../normalize.ts";
import { extractNative } from "../../recording/index.ts";
import { readCallLog } from "./call-log.ts";
import { JUDGE_AGENT } from "./judge-agent.ts";
import { SubmissionFileSchema } from "./schema.ts";
import { asSentence, describeState } from "../../util/words.ts";

export interface JudgeRunFiles {
  submission: string;
  log: string;
  stderr: string;
  /** The archived judge database; null when there was none to archive. */
  database: string | null;
}

const SHOWN_ERRORS = 3;

export function readJudgment(
  files: JudgeRunFiles,
  outcome: OpenCodeOutcome,
  criteria: readonly string[],
): SourceOutcome {
  const log = readCallLog(files.log);
  const fatal = log.find((entry) => entry.type === "fatal");
  if (fatal?.type === "fatal") return failed(`the judge's tool server could not open the recording: ${fatal.error}`);
  const stderr = existsSync(files.stderr) ? readFileSync(files.stderr, "utf8") : "";
  if (/server unavailable.*key=judge/.test(stderr)) {
    return failed(
      'OpenCode could not start the judge\'s tool server (its log says "server unavailable"), so the judge had no tools; see opencode-stderr.log',
    );
  }
  const agent = files.database ? readSessionAgent(files.database) : null;
  if (existsSync(files.submission)) {
    // A judge that ran as another agent had every tool (bash included): nothing it left can be trusted.
    if (agent !== JUDGE_AGENT) {
      return failed(
        `the judge session ran as agent ${JSON.stringify(agent)}, not "${JUDGE_AGENT}", so it was not confined to the judge tools; its judgment is void`,
      );
    }
    if (!log.some((entry) => entry.type === "call" && entry.tool === "submit_judgment" && entry.accepted)) {
      return failed(
        "a submission file exists but the tool server never accepted a judgment in this run; its judgment is void",
      );
    }
    return readSubmission(files.submission, criteria);
  }

  const rejected = log
    .flatMap((entry) => (entry.type === "call" && !entry.accepted && entry.error ? [entry.error] : []))
    .slice(-SHOWN_ERRORS);
  const last = rejected.length > 0 ? ` Last tool errors:\n${rejected.join("\n")}` : "";
  const ended = ` The session ended ${describeState(outcome.state)}${outcome.error ? `: ${asSentence(outcome.error)}` : "."}`;
  const silent = log.some((entry) => entry.type === "ready") ? "" : " The judge's tool server never reported ready.";
  const answer = files.database ? lastAnswer(files.database) : "";
  const said = answer ? ` It answered instead: "${answer}".` : "";
  const state = outcome.state === "timed_out" ? "timed_out" : "failed";
  return { state, scores: null, error: `the judge submitted no valid judgment.${ended}${silent}${said}${last}` };
}

function readSubmission(file: string, criteria: readonly string[]): SourceOutcome {
  try {
    const submission = SubmissionFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    const normalized = normalizeJudgeOutput(submission, "judge.md", criteria);
    if (normalized.kind !== "scored") return failed("the accepted judgment has no scores");
    return { state: "completed", scores: normalized.scores };
  } catch (error) {
    const reason = error instanceof JudgingError ? error.message : `it is unreadable (${(error as Error).message})`;
    return failed(`the accepted judgment cannot be used: ${reason}`);
  }
}

/** How much of a judge's free text a failure quotes: enough to see a wrong format or a refusal. */
const QUOTED_ANSWER_CHARS = 300;

/** The judge's last free-text answer, cut short: never scored, only quoted to say why no judgment came. */
function lastAnswer(database: string): string {
  let text: string;
  try {
    text = extractNative(database).response.trim().replaceAll(/\s+/g, " ");
  } catch {
    return ""; // a database that cannot be read has nothing to quote; the failure is said without it
  }
  return text.length > QUOTED_ANSWER_CHARS ? `${text.slice(0, QUOTED_ANSWER_CHARS)}…` : text;
}

/** The root session's agent, from the judge's own archived database. */
function readSessionAgent(database: string): string | null {
  const db = new Database(database, { readonly: true });
  try {
    const row = db
      .query<{ agent: string | null }, []>(
        "SELECT agent FROM session WHERE parent_id IS NULL ORDER BY time_created LIMIT 1",
      )
      .get();
    return row?.agent ?? null;
  } finally {
    db.close();
  }
}

function failed(error: string): SourceOutcome {
  return { state: "failed", scores: null, error };
}
