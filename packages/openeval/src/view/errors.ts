// Viewer-stage errors a user can act on, each with a stable code and its message written once here. The CLI maps
// them to exit code 2; the API answers CompareError with 400 and UnreadableEvidenceError with 409.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  targetNotEmpty: {
    code: "OE_EXPORT_TARGET_NOT_EMPTY",
    message: ({ output }: { output: string }) =>
      `${output} is not empty and is not an earlier openeval export; pass a new or empty folder to --output`,
  },
  artifactNotWorkspacePath: {
    code: "OE_EXPORT_BAD_ARTIFACT",
    message: ({ path }: { path: string }) =>
      `--allow-artifact "${path}" is not a workspace path; give a path relative to the workspace, such as src/app.ts`,
  },
  /** The recording's own integrity error, as the reader recorded it. */
  recordingFailsCheck: { code: "OE_RECORDING_UNREADABLE", message: ({ problem }: { problem: string }) => problem },
  judgeRunFileFailsCheck: {
    code: "OE_RECORDING_UNREADABLE",
    message: ({ problem }: { problem: string }) => `Integrity error: ${problem}`,
  },
  noBaseline: {
    code: "OE_COMPARE_INVALID",
    message: ({ file }: { file: string }) => `No baseline at ${file}; set one with \`openeval baseline set <run-dir>\``,
  },
  sameRunWithoutModels: {
    code: "OE_COMPARE_INVALID",
    message: ({ runId, models }: { runId: string; models: string[] }) =>
      `Comparing run ${runId} with itself needs two of its models (${models.join(", ")}): name them with modelA and modelB`,
  },
  noSharedModel: {
    code: "OE_COMPARE_INVALID",
    message: ({ a, modelsA, b, modelsB }: { a: string; modelsA: string[]; b: string; modelsB: string[] }) =>
      `${a} (${modelsA.join(", ") || "no models"}) and ${b} (${modelsB.join(", ") || "no models"}) share no model; name one model of each side`,
  },
  modelMissing: {
    code: "OE_COMPARE_INVALID",
    message: ({ side, model, models }: { side: string; model: string; models: string[] }) =>
      `${side} has no model ${model}; its models are ${models.join(", ") || "none"}`,
  },
  pairOutOfRange: {
    code: "OE_COMPARE_INVALID",
    message: ({ pairs, index }: { pairs: number; index: number }) =>
      `pair: this comparison has ${pairs} model pair(s), at positions 0 to ${pairs - 1}; got ${index}`,
  },
  planChanged: {
    code: "OE_LAUNCH_PLAN_CHANGED",
    message: ({ confirmed, now }: { confirmed: string; now: string }) =>
      `The plan changed since it was confirmed (confirmed ${confirmed}, now ${now}); look at the plan again and confirm what it now says`,
  },
  runnerEnded: {
    code: "OE_LAUNCH_FAILED",
    message: ({ exitCode, output }: { exitCode: number | null; output: string }) =>
      `openeval run ended before it started the run (exit code ${exitCode ?? "none"}): ${output.trim() || "it printed nothing"}`,
  },
  notRunHere: {
    code: "OE_LAUNCH_NOT_RUNNING",
    message: ({ runId }: { runId: string }) =>
      `This viewer is not running ${runId}; a run started elsewhere is stopped where it runs (Ctrl+C, or kill its pid)`,
  },
  noLauncher: {
    code: "OE_LAUNCH_UNAVAILABLE",
    message: () => "This viewer cannot start runs (it was not started by `openeval view`); use `openeval run`",
  },
} as const satisfies Record<string, Situation>;

type Situations = typeof SITUATIONS;
/** The situations of the codes `C`: each class below takes only its own. */
type SituationOf<C extends string> = {
  [K in keyof Situations]: Situations[K]["code"] extends C ? K : never;
}[keyof Situations];

type ExportSituation = SituationOf<"OE_EXPORT_TARGET_NOT_EMPTY" | "OE_EXPORT_BAD_ARTIFACT">;
export class ExportError<S extends ExportSituation = ExportSituation> extends SituationError<
  Pick<Situations, ExportSituation>,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}

type UnreadableSituation = SituationOf<"OE_RECORDING_UNREADABLE">;
/** A recording or judge-run file that exists but fails its hash check: the API answers it, never an empty list. */
export class UnreadableEvidenceError<S extends UnreadableSituation = UnreadableSituation> extends SituationError<
  Pick<Situations, UnreadableSituation>,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}

type CompareSituation = SituationOf<"OE_COMPARE_INVALID">;
/** A comparison that names no run, baseline or model it can compare (the message lists what exists). */
export class CompareError<S extends CompareSituation = CompareSituation> extends SituationError<
  Pick<Situations, CompareSituation>,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}

type LaunchSituation = SituationOf<
  "OE_LAUNCH_PLAN_CHANGED" | "OE_LAUNCH_FAILED" | "OE_LAUNCH_NOT_RUNNING" | "OE_LAUNCH_UNAVAILABLE"
>;
/** A run the viewer's page asked to start or stop that it cannot: the API answers 409 with the message. */
export class RunLaunchError<S extends LaunchSituation = LaunchSituation> extends SituationError<
  Pick<Situations, LaunchSituation>,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
