// Viewer-stage errors a user can act on, each with a stable code and its message written once here. The CLI maps
// them to exit code 2; the API answers CompareError with 400 and UnreadableEvidenceError with 409.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const EXPORT_SITUATIONS = {
  targetNotEmpty: { code: "OE_EXPORT_TARGET_NOT_EMPTY", message: ({ output }: { output: string }) => `${output} is not empty and is not an earlier openeval export; pass a new or empty folder to --output` },
  artifactNotWorkspacePath: { code: "OE_EXPORT_BAD_ARTIFACT", message: ({ path }: { path: string }) => `--allow-artifact "${path}" is not a workspace path; give a path relative to the workspace, such as src/app.ts` },
} as const satisfies Record<string, Situation>;

type ExportSituation = keyof typeof EXPORT_SITUATIONS;

export class ExportError<S extends ExportSituation = ExportSituation> extends SituationError<typeof EXPORT_SITUATIONS, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof EXPORT_SITUATIONS)[S]>) {
    super(EXPORT_SITUATIONS, situation, data, options);
  }
}

const UNREADABLE_SITUATIONS = {
  /** The recording's own integrity error, as the reader recorded it. */
  recordingFailsCheck: { code: "OE_RECORDING_UNREADABLE", message: ({ problem }: { problem: string }) => problem },
  judgeRunFileFailsCheck: { code: "OE_RECORDING_UNREADABLE", message: ({ problem }: { problem: string }) => `Integrity error: ${problem}` },
} as const satisfies Record<string, Situation>;

type UnreadableSituation = keyof typeof UNREADABLE_SITUATIONS;

/** A recording or judge-run file that exists but fails its hash check: the API answers it, never an empty list. */
export class UnreadableEvidenceError<S extends UnreadableSituation = UnreadableSituation> extends SituationError<typeof UNREADABLE_SITUATIONS, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof UNREADABLE_SITUATIONS)[S]>) {
    super(UNREADABLE_SITUATIONS, situation, data, options);
  }
}

const COMPARE_SITUATIONS = {
  noBaseline: { code: "OE_COMPARE_INVALID", message: ({ file }: { file: string }) => `No baseline at ${file}; set one with \`openeval baseline set <run-dir>\`` },
  sameRunWithoutModels: { code: "OE_COMPARE_INVALID", message: ({ runId, models }: { runId: string; models: string[] }) => `Comparing run ${runId} with itself needs two of its models (${models.join(", ")}): name them with modelA and modelB` },
  noSharedModel: {
    code: "OE_COMPARE_INVALID",
    message: ({ a, modelsA, b, modelsB }: { a: string; modelsA: string[]; b: string; modelsB: string[] }) => `${a} (${modelsA.join(", ") || "no models"}) and ${b} (${modelsB.join(", ") || "no models"}) share no model; name one model of each side`,
  },
  modelMissing: { code: "OE_COMPARE_INVALID", message: ({ side, model, models }: { side: string; model: string; models: string[] }) => `${side} has no model ${model}; its models are ${models.join(", ") || "none"}` },
  pairOutOfRange: { code: "OE_COMPARE_INVALID", message: ({ pairs, index }: { pairs: number; index: number }) => `pair: this comparison has ${pairs} model pair(s), at positions 0 to ${pairs - 1}; got ${index}` },
} as const satisfies Record<string, Situation>;

type CompareSituation = keyof typeof COMPARE_SITUATIONS;

/** A comparison that names no run, baseline or model it can compare (the message lists what exists). */
export class CompareError<S extends CompareSituation = CompareSituation> extends SituationError<typeof COMPARE_SITUATIONS, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof COMPARE_SITUATIONS)[S]>) {
    super(COMPARE_SITUATIONS, situation, data, options);
  }
}
