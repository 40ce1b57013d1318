// The RunMetrics of one archived OpenCode session, candidate or rubric judge alike: what its database records, timed
// by the runner, with the usage the event stream saw and the database lacks added back (a killed process's last step).
import type { StreamLedger } from "../opencode/index.ts";
import type { RunMetrics } from "../records/index.ts";
import { extractNative, type ExtractOptions, type NativeExtract } from "./native-extract.ts";
import { addShortfall, compareWithStream, type StreamComparison } from "./stream-integrity.ts";

export interface MeasureSessionRequest {
  /** The archived database (rollback journal, WAL folded in). */
  database: string;
  /** From the session's start to its end, as the runner saw it. */
  elapsedMs: number;
  extract?: ExtractOptions;
  /** What the harness saw in OpenCode's event stream: the database is checked against it. */
  stream?: { ledger: StreamLedger; killed: boolean };
}

export interface MeasuredSession {
  native: NativeExtract;
  metrics: RunMetrics;
  /** The database checked against the stream; null without one. */
  comparison: StreamComparison | null;
}

/** @example const { metrics } = measureSession({ database: join(dir, "opencode.db"), elapsedMs: outcome.elapsedMs, stream: { ledger: outcome.stream, killed: outcome.killed } }); */
export function measureSession(request: MeasureSessionRequest): MeasuredSession {
  const native = extractNative(request.database, request.extract);
  const comparison = request.stream
    ? compareWithStream(native, request.stream.ledger, { killed: request.stream.killed })
    : null;
  const measured = { ...native.metrics, timing: { ...native.metrics.timing, elapsedMs: request.elapsedMs } };
  return { native, metrics: comparison ? addShortfall(measured, comparison.shortfall) : measured, comparison };
}
