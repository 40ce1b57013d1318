// earlyStop: while a candidate runs, the rubric judge checks snapshots of its evidence; once every criterion is
// decided for good (e.g. src/ was deleted), the candidate is stopped and that judgment is final.
import type { EvalConfig } from "openeval";

export default {
  earlyStop: { minIntervalMs: 1_000, maxChecks: 6 },
} satisfies EvalConfig;
