// One judge request (a final grading or one early check) ends at most once: with an accepted submission, or, in an
// early check, with continue_judging. The files on disk are the truth, so a restarted tool server stays closed.
import { existsSync } from "node:fs";

export interface JudgeRequest {
  /** Why the request is closed, or null while it is open. */
  closedBy(): string | null;
  close(reason: string): void;
}

export function openJudgeRequest(files: { submissionFile: string; continueFile: string }): JudgeRequest {
  let closed: string | null = existsSync(files.submissionFile)
    ? "a judgment was already accepted"
    : existsSync(files.continueFile)
      ? "this check already ended with continue_judging"
      : null;
  return {
    closedBy: () => closed,
    close(reason) {
      closed ??= reason;
    },
  };
}
