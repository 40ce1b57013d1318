// Scorer errors: a stable code and a message that says what to fix (the reference file, the options). A judge.ts
// that lets one escape fails its judge run with that message: a judging error, never a candidate's 0.
import type { Situation, SituationArgs } from "../../util/errors.ts";

const HOW_TO_WRITE =
  "put the fix in a ```diff block as `git diff` prints it: `--- a/<path>`, `+++ b/<path>`, then `@@` hunks";

const SITUATIONS = {
  referenceUnreadable: {
    code: "OE_REFERENCE_UNREADABLE",
    message: ({ path, reason }: { path: string; reason: string }) =>
      `referenceFix: the reference fix ${path} is unreadable: ${reason}. Create it in the eval folder (the judge's working directory) or pass { reference: "<path>" }`,
  },
  referenceMalformed: {
    code: "OE_REFERENCE_MALFORMED",
    message: ({ source, line, detail }: { source: string; line: number; detail: string }) =>
      `referenceFix: ${source}, line ${line}: ${detail}`,
  },
  referenceWithoutDiff: {
    code: "OE_REFERENCE_WITHOUT_DIFF",
    message: ({ source }: { source: string }) => `referenceFix: ${source} contains no unified diff; ${HOW_TO_WRITE}`,
  },
  optionsInvalid: {
    code: "OE_INVALID_OPTIONS",
    message: ({ scorer, problems }: { scorer: string; problems: string[] }) =>
      `${scorer}: invalid options: ${problems.join("; ")}`,
  },
  expectedNotString: {
    code: "OE_INVALID_OPTIONS",
    message: ({ got }: { got: string }) => `exactMatch: expected must be a string, got ${got}`,
  },
  toolNameMissing: {
    code: "OE_INVALID_OPTIONS",
    message: () => 'toolWasCalled: name must be a tool name such as "bash" or "edit"',
  },
  toolSequenceInvalid: {
    code: "OE_INVALID_OPTIONS",
    message: () =>
      'toolSequence: expected must be a non-empty list of tool names or { name, input? } steps, e.g. ["read", { name: "bash", input: { command: /test/ } }]',
  },
  stepsUncounted: {
    code: "OE_STEPS_UNCOUNTED",
    message: () =>
      "stepCount: this recording counts no model steps (constructed evidence, as recordEvidence writes, ran no model); use it on an eval run's recording, or leave stepCount out of judges that score constructed controls",
  },
  schemaMissing: {
    code: "OE_INVALID_OPTIONS",
    message: () => "jsonShape: pass a zod schema (an object with safeParse), e.g. jsonShape(ctx, z.object({ ... }))",
  },
} as const satisfies Record<string, Situation>;

export type ScorerSituation = keyof typeof SITUATIONS;
export type ScorerErrorCode = (typeof SITUATIONS)[ScorerSituation]["code"];

export class ScorerError<S extends ScorerSituation = ScorerSituation> extends Error {
  readonly code: ScorerErrorCode;
  constructor(
    readonly situation: S,
    ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>
  ) {
    super(SITUATIONS[situation].message(data as never), options);
    this.name = "ScorerError";
    this.code = SITUATIONS[situation].code;
  }
}
