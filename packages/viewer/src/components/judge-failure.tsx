// A judgment that failed or timed out is the judge's failure, not the candidate's: the candidate's recording is kept
// and its slot stays unresolved (never scored 0) until `openeval rejudge` grades that recording again.
import type { JudgeRunState } from "openeval/viewer-api";

export function JudgeFailure({
  run,
  evalRunId,
  state,
  error,
}: {
  run: string;
  evalRunId: string;
  state: JudgeRunState;
  error: string | null;
}) {
  if (state !== "failed" && state !== "timed_out") return null;
  // From the benchmark's folder, `--run` names this run whether or not it is the latest.
  const command = `openeval rejudge ${evalRunId} --run results/${run}`;
  return (
    <div className="error-box" data-testid="judge-failure">
      <strong>The judge {state === "timed_out" ? "timed out" : "failed"}: this is not the candidate's failure.</strong>{" "}
      The candidate's recording is kept, and its slot stays unresolved (not scored) until it is judged again. To judge
      it again, run this in the benchmark's folder: <code data-testid="rejudge-command">{command}</code>
      {error ? <div className="small">Judge error: {error}</div> : null}
    </div>
  );
}
