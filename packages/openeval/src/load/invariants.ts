// benchmark.ts `invariants`: the run-level manifest of checks the `invariants` verdict contributor rests on. Each is
// an argv (no shell) run once per run state in the verification sandbox over the run's summary or its final
// workspaces; how it runs and what it sees: docs/guide/invariants.md.
import * as z from "zod";
import { fingerprint } from "../util/hash.ts";

/** What an invariant reads: the run's summary JSON, or every active eval run's final workspace. */
export const INVARIANT_INPUTS = ["summary", "workspaces"] as const;
export type InvariantOver = (typeof INVARIANT_INPUTS)[number];

/** A lowercase letter or digit, then lowercase letters, digits, ".", "_" and "-": it names the invariant in every report. */
export const INVARIANT_ID = /^[a-z0-9][a-z0-9._-]*$/;
export const DEFAULT_INVARIANT_TIMEOUT_MS = 120_000;
/** An hour: a check that needs longer belongs in a judge, per eval run. */
export const MAX_INVARIANT_TIMEOUT_MS = 3_600_000;

export const InvariantSchema = z.strictObject({
  id: z.string().regex(INVARIANT_ID, {
    message:
      'must be a lowercase letter or digit, then lowercase letters, digits, ".", "_" or "-", such as "no-secrets-in-workspaces"',
  }),
  description: z.string().min(1).optional(),
  argv: z
    .array(z.string())
    .min(1, { message: 'give the command and its arguments as a list, e.g. ["bun", "checks/no-secrets.ts"]' })
    .refine((argv) => argv[0] !== "", { message: "the command (argv[0]) is empty; name the program to run" }),
  over: z.enum(INVARIANT_INPUTS, {
    error: (issue) =>
      `${issue.input === undefined ? "is missing" : `"${String(issue.input)}" is not an input`}; write over: "summary" (the run's summary JSON at /input/summary.json) or over: "workspaces" (every eval run's final workspace under /input/workspaces/<eval>/<eval-run>/)`,
  }),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(MAX_INVARIANT_TIMEOUT_MS, { message: `must be at most ${MAX_INVARIANT_TIMEOUT_MS} (an hour)` })
    .default(DEFAULT_INVARIANT_TIMEOUT_MS),
});

export const InvariantsSchema = z.array(InvariantSchema).superRefine((invariants, context) => {
  const seen = new Set<string>();
  invariants.forEach((invariant, index) => {
    if (seen.has(invariant.id))
      context.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `"${invariant.id}" is declared twice; give each invariant its own id`,
      });
    seen.add(invariant.id);
  });
});

export type Invariant = z.output<typeof InvariantSchema>;

/** The fingerprint of what an invariant runs: a recorded result stands only while its declaration is unchanged. */
export function invariantDefinition(invariant: Invariant): string {
  return fingerprint({ argv: invariant.argv, over: invariant.over, timeoutMs: invariant.timeoutMs });
}
