// The words for a recording that failed its check against the harness's event stream: the eval run's error, the
// summary's and the viewer's integrity list, and `openeval verify` all say it the same way, naming files and numbers.
import type { RecordingIntegrityError, RecordingMismatch } from "./schema.ts";

/**
 * @example
 * describeRecordingIntegrity({ stream: "eval-runs/e/logs/opencode-events.jsonl", database: "eval-runs/e/evidence/native/opencode.db",
 *   mismatches: [{ sessionID: "ses_1", quantity: "cost", stream: 0.15, database: 0.002 }] })
 * // "Integrity error: … session ses_1: cost $0.002000 recorded, $0.150000 seen …"
 */
export function describeRecordingIntegrity(error: RecordingIntegrityError): string {
  const sessions = Map.groupBy(error.mismatches, (mismatch) => mismatch.sessionID);
  const found = [...sessions].map(
    ([sessionID, mismatches]) => `session ${sessionID}: ${mismatches.map(describeMismatch).join("; ")}`,
  );
  return (
    `Integrity error: the recording was changed while the candidate ran — ${error.database} records less than the harness's own event stream ${error.stream} (${found.join(" / ")}). ` +
    "It is not judged or scored, and its cost is what the stream saw. Keep the candidate away from OpenCode's files (container isolation), then retry it with openeval retry."
  );
}

function describeMismatch(mismatch: RecordingMismatch): string {
  const amount = (value: number) => (mismatch.quantity === "cost" ? `$${value.toFixed(6)}` : String(value));
  const missing = mismatch.missing?.length ? ` (missing ${mismatch.missing.join(", ")})` : "";
  return `${mismatch.quantity} ${amount(mismatch.database)} recorded, ${amount(mismatch.stream)} seen${missing}`;
}
