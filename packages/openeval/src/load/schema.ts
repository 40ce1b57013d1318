// The shapes authors write: benchmark.ts and eval.ts. Parsed once at load time; types come from here.
import * as z from "zod";
import { CRITERION_ID } from "../util/criterion-id.ts";

export { CRITERION_ID };
import { DEFAULT_SNAPSHOT_LIMITS } from "../util/evidence-limits.ts";

/** `provider/model[#variant]`, as OpenCode names models. */
export const MODEL_ID = /^[\w.-]+\/[^\s/#]+(?:\/[^\s/#]+)*(?:#[\w.-]+)?$/;

const MAX_CANDIDATE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_CANDIDATE_TIMEOUT_MS = 45 * 60 * 1000;
export const DEFAULT_JUDGE_TIMEOUT_MS = 600_000;

const positiveInt = z.number().int().positive();
const positiveUSD = z.number().positive().finite();

export const ModelIdSchema = z
  .string()
  .regex(MODEL_ID, { message: 'must look like "provider/model" or "provider/model#variant"' });

export const VerificationSettingsSchema = z.strictObject({
  image: z.string().min(1).optional(),
  engine: z.enum(["docker", "podman"]).optional(),
  cpus: z.number().positive().optional(),
  memoryMiB: positiveInt.optional(),
});

export const JudgeSettingsSchema = z.strictObject({
  model: ModelIdSchema.optional(),
  timeoutMs: positiveInt.default(DEFAULT_JUDGE_TIMEOUT_MS),
  maxCostUSD: positiveUSD.optional(),
  verification: VerificationSettingsSchema.optional(),
});

/** Where candidates run (SPEC §6): `container` (sandboxed; the default for real models), `process` (this machine). */
export const ISOLATION_BACKENDS = ["container", "process"] as const;

export const CandidateContainerSchema = z.strictObject({
  cpus: z.number().positive().optional(),
  memoryMiB: positiveInt.optional(),
  pidsLimit: positiveInt.optional(),
  /** A container engine address (`tcp://host:port`, `unix:///path`), instead of DOCKER_HOST or the local socket. */
  host: z.string().regex(/^(unix|tcp|ssh):\/\//, { message: 'must be an engine address such as "tcp://127.0.0.1:2375" or "unix:///var/run/docker.sock"' }).optional(),
});

export const CandidateSettingsSchema = z.strictObject({
  timeoutMs: positiveInt.max(MAX_CANDIDATE_TIMEOUT_MS).default(DEFAULT_CANDIDATE_TIMEOUT_MS),
  maxCostUSD: positiveUSD.optional(),
  /** OpenCode `provider` config entries, merged into each candidate's inline config. */
  providers: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** Default: `container` for real models, `process` for control models; `--isolation` overrides it. */
  isolation: z.enum(ISOLATION_BACKENDS).optional(),
  container: CandidateContainerSchema.optional(),
  /** Container isolation: hosts (`host` or `host:port`, default port 443) reachable besides the model's provider. */
  network: z.strictObject({ allow: z.array(z.string().regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?$/, { message: 'must be "host" or "host:port"' })).default([]) }).optional(),
});

/** Workspace snapshot limits (bytes): what is over them is recorded by size and sha256, not copied. */
export const EvidenceSettingsSchema = z.strictObject({
  maxFileBytes: positiveInt.default(DEFAULT_SNAPSHOT_LIMITS.maxFileBytes),
  maxSnapshotBytes: positiveInt.default(DEFAULT_SNAPSHOT_LIMITS.maxSnapshotBytes),
});

export const GatesSchema = z.strictObject({
  score: z.strictObject({ min: z.number().min(0).max(1) }).optional(),
  criteria: z.record(z.string().regex(CRITERION_ID), z.strictObject({ min: z.number().min(0).max(1) })).optional(),
  latency: z.strictObject({ p95Ms: positiveInt }).optional(),
  cost: z.strictObject({ maxUSD: positiveUSD }).optional(),
});

export const BenchmarkSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    models: z.array(ModelIdSchema).min(1, { message: "list at least one model" }),
    repetitions: positiveInt.default(3),
    concurrency: positiveInt.optional(),
    judge: JudgeSettingsSchema.default({ timeoutMs: DEFAULT_JUDGE_TIMEOUT_MS }),
    candidate: CandidateSettingsSchema.default({ timeoutMs: DEFAULT_CANDIDATE_TIMEOUT_MS, providers: {} }),
    gates: GatesSchema.optional(),
    evidence: EvidenceSettingsSchema.default(DEFAULT_SNAPSHOT_LIMITS),
    /** Which verdict contributors are enabled (all by default); the CLI's --gate/--only/--no-llm-judge come after. */
    verdict: z
      .strictObject({ "code-judge": z.boolean().optional(), "llm-judge": z.boolean().optional(), gates: z.boolean().optional(), regression: z.boolean().optional() })
      .optional(),
  })
  .superRefine((benchmark, context) => {
    const seen = new Set<string>();
    benchmark.models.forEach((model, index) => {
      if (seen.has(model)) {
        context.addIssue({ code: "custom", path: ["models", index], message: `duplicate model "${model}"` });
      }
      seen.add(model);
    });
  });

export const EarlyStopSchema = z.union([
  z.literal(true),
  z.literal(false),
  z.strictObject({
    minIntervalMs: positiveInt.optional(),
    maxChecks: positiveInt.optional(),
    maxCostUSD: positiveUSD.optional(),
    /** Check only these models' candidates (OpenEval's `onlyModels`); every model when absent. */
    onlyModels: z.array(ModelIdSchema).min(1, { message: "list at least one model, or remove onlyModels" }).optional(),
  }),
]);

const CandidateTimeoutSchema = positiveInt.max(MAX_CANDIDATE_TIMEOUT_MS);

/**
 * eval.ts. The candidate's time limit is `candidate: { timeoutMs }` (OpenEval's spelling, overriding benchmark.ts's);
 * a top-level `timeoutMs` is accepted as an alias. Validated, both come out as `timeoutMs`.
 */
export const EvalSettingsSchema = z
  .strictObject({
    title: z.string().optional(),
    candidate: z.strictObject({ timeoutMs: CandidateTimeoutSchema.optional() }).optional(),
    /** Alias of `candidate.timeoutMs`. */
    timeoutMs: CandidateTimeoutSchema.optional(),
    earlyStop: EarlyStopSchema.optional(),
    prepare: z
      .array(z.strictObject({ cwd: z.string().optional(), argv: z.array(z.string()).min(1) }))
      .optional(),
  })
  .superRefine((settings, context) => {
    if (settings.timeoutMs !== undefined && settings.candidate?.timeoutMs !== undefined) {
      context.addIssue({ code: "custom", path: ["timeoutMs"], message: "is an alias of candidate.timeoutMs; give the timeout once, as candidate: { timeoutMs }" });
    }
  })
  .transform(({ candidate, timeoutMs, ...settings }): typeof settings & { timeoutMs?: number } => {
    const limit = candidate?.timeoutMs ?? timeoutMs;
    return limit === undefined ? settings : { ...settings, timeoutMs: limit };
  });

export const PromptFrontMatterSchema = z.looseObject({
  title: z.string().optional(),
  tags: z.array(z.string()).optional(),
});

/** What authors write in benchmark.ts (`satisfies Benchmark`). */
export type Benchmark = z.input<typeof BenchmarkSchema>;
/** benchmark.ts after validation, with defaults applied. */
export type BenchmarkSettings = z.output<typeof BenchmarkSchema>;
/** What authors write in eval.ts. */
export type EvalConfig = z.input<typeof EvalSettingsSchema>;
export type EvalSettings = z.output<typeof EvalSettingsSchema>;
export type GateSettings = z.output<typeof GatesSchema>;
