// The shape of baseline.json (beside benchmark.ts): fingerprints and per-(eval, model, criterion) scores of an
// accepted run — never prompts, responses, inputs, judge reasons or credentials. Parsed at the edge by readBaseline.
import * as z from "zod";

export const BASELINE_FORMAT = "openeval.baseline";
export const BASELINE_VERSION = 1;

export const BaselineEntrySchema = z.strictObject({
  evalId: z.string().min(1),
  model: z.string().min(1),
  /** The arm's variant (`baseline set --variant`); absent for current. */
  variant: z.string().min(1).optional(),
  /** The distinct candidate fingerprints of the entry's eval runs (one unless inputs changed between repetitions). */
  candidateFingerprints: z.array(z.string()),
  /** The distinct judge fingerprints of the judgments that produced the scores. */
  judgeFingerprints: z.array(z.string()),
  /** Criterion id → score (mean over repetitions); always resolved. */
  criteria: z.record(z.string(), z.number().min(0).max(1)),
  /** An eval with cases: case id → criterion id → score, so that regression compares each case; absent without. */
  cases: z.record(z.string(), z.record(z.string(), z.number().min(0).max(1))).optional(),
});

export const BaselineSchema = z
  .strictObject({
    format: z.literal(BASELINE_FORMAT),
    version: z.literal(BASELINE_VERSION),
    runId: z.string().min(1),
    createdAt: z.string(),
    /** The run's verdict when it was accepted; "fail" only with --accept-failing. */
    verdict: z.enum(["pass", "fail", "unknown"]),
    acceptedFailing: z.boolean(),
    /** The contributors enabled when the verdict was decided. */
    gate: z.array(z.string()),
    entries: z.array(BaselineEntrySchema),
  })
  .superRefine((baseline, context) => {
    const seen = new Set<string>();
    baseline.entries.forEach((entry, index) => {
      const key = `${entry.evalId}\u0000${entry.model}\u0000${entry.variant ?? ""}`;
      if (seen.has(key))
        context.addIssue({
          code: "custom",
          path: ["entries", index],
          message: `duplicate entry for ${entry.evalId} × ${entry.model}${entry.variant ? ` [${entry.variant}]` : ""}`,
        });
      seen.add(key);
    });
  });

export type BaselineEntry = z.infer<typeof BaselineEntrySchema>;
export type Baseline = z.infer<typeof BaselineSchema>;
