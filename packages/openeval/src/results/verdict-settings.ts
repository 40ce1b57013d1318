// The settings a run's verdict was decided with: gates with their criterion thresholds, the contributor
// selection of benchmark.ts and of the command line, and a fingerprint of the judge and candidate settings they came
// from. Recorded with the run, so that readResults and the viewer judge a run by what it ran with, and can say when
// benchmark.ts has changed since. Provider config is kept only as a fingerprint: it may hold keys.
import * as z from "zod";
import { GatesSchema, IntegritySettingsSchema, JudgeSettingsSchema, type BenchmarkSettings } from "../load/index.ts";
import { fingerprint } from "../util/hash.ts";
import type { GateSelection } from "./gate-selection.ts";
import type { ResultsStore } from "../records/index.ts";

export const VERDICT_SETTINGS_EVENT = "verdict.settings";

export const VerdictSettingsSchema = z.object({
  gates: GatesSchema.nullable(),
  /** benchmark.ts `verdict`: contributor id → enabled. */
  configured: z.record(z.string(), z.boolean()).nullable(),
  /** The command line's --gate / --only / --no-llm-judge / --no-integrity / --no-invariants. */
  selection: z.object({
    gate: z.array(z.string()).optional(),
    only: z.array(z.string()).optional(),
    noLlmJudge: z.boolean().optional(),
    noIntegrity: z.boolean().optional(),
    noInvariants: z.boolean().optional(),
  }),
  /** benchmark.ts `integrity`: which findings fail the verdict; absent in runs recorded before it. */
  integrity: IntegritySettingsSchema.nullable().optional(),
  /**
   * benchmark.ts `invariants`, the manifest the invariants contributor checks; absent when none is declared. Kept as
   * recorded and parsed where it is used, so that a recorded manifest that no longer parses fails that contributor
   * instead of every reader of the run.
   */
  invariants: z.array(z.unknown()).optional(),
  /** The judges, and when their disagreement keeps a criterion from blocking (the panel keys only when set). */
  judge: JudgeSettingsSchema.pick({
    models: true,
    combine: true,
    minAgreement: true,
    minAgreementUnits: true,
    strict: true,
  }).extend({
    model: z.string().nullable(),
    timeoutMs: z.number(),
    maxCostUSD: z.number().nullable(),
  }),
  /** `maxTokens` and `maxSteps` only when set, and absent in runs recorded before them. */
  candidate: z.object({
    timeoutMs: z.number(),
    maxCostUSD: z.number().nullable(),
    maxTokens: z.number().optional(),
    maxSteps: z.number().optional(),
    providersFingerprint: z.string(),
  }),
  /** Of everything above except the command line's selection: equal fingerprints mean benchmark.ts's verdict settings are unchanged. */
  fingerprint: z.string(),
});

export type VerdictSettings = z.infer<typeof VerdictSettingsSchema>;

/**
 * @example verdictSettingsOf(benchmark.settings, { only: ["gates"] }).fingerprint // "3f1c…"
 */
export function verdictSettingsOf(
  settings: BenchmarkSettings,
  selection: Omit<GateSelection, "configured"> = {},
): VerdictSettings {
  const fromBenchmark = {
    gates: settings.gates ?? null,
    configured: settings.verdict ?? null,
    // Only when set: runs recorded before it keep their fingerprint.
    ...(settings.integrity ? { integrity: settings.integrity } : {}),
    ...(settings.invariants?.length ? { invariants: settings.invariants } : {}),
    judge: {
      model: settings.judge.model ?? null,
      timeoutMs: settings.judge.timeoutMs,
      maxCostUSD: settings.judge.maxCostUSD ?? null,
      // Only when set: runs recorded before panels keep their fingerprint.
      ...panelSettings(settings),
    },
    candidate: {
      timeoutMs: settings.candidate.timeoutMs,
      maxCostUSD: settings.candidate.maxCostUSD ?? null,
      // Only when set: runs recorded before them keep their fingerprint.
      ...(settings.candidate.maxTokens === undefined ? {} : { maxTokens: settings.candidate.maxTokens }),
      ...(settings.candidate.maxSteps === undefined ? {} : { maxSteps: settings.candidate.maxSteps }),
      providersFingerprint: fingerprint(settings.candidate.providers),
    },
  };
  const cli = {
    ...(selection.gate ? { gate: [...selection.gate] } : {}),
    ...(selection.only ? { only: [...selection.only] } : {}),
    ...(selection.noLlmJudge ? { noLlmJudge: true } : {}),
    ...(selection.noIntegrity ? { noIntegrity: true } : {}),
    ...(selection.noInvariants ? { noInvariants: true } : {}),
  };
  return { ...fromBenchmark, selection: cli, fingerprint: fingerprint(fromBenchmark) };
}

/** Appended on every invocation that decides the run's verdict (a resumed run may run with other settings). */
export function recordVerdictSettings(store: ResultsStore, settings: VerdictSettings): void {
  store.appendEvent(VERDICT_SETTINGS_EVENT, settings);
}

/** The settings the run was last decided with, or null for runs made before they were recorded. */
export function readVerdictSettings(store: ResultsStore): VerdictSettings | null {
  const recorded = store.latestEvent(VERDICT_SETTINGS_EVENT);
  return recorded === null ? null : VerdictSettingsSchema.parse(recorded);
}

/** The panel and agreement keys benchmark.ts sets: they change which failures block. */
function panelSettings(settings: BenchmarkSettings) {
  const { models, combine, minAgreement, minAgreementUnits, strict } = settings.judge;
  return {
    ...(models ? { models } : {}),
    ...(combine ? { combine } : {}),
    ...(minAgreement === undefined ? {} : { minAgreement }),
    ...(minAgreementUnits === undefined ? {} : { minAgreementUnits }),
    ...(strict === undefined ? {} : { strict }),
  };
}
