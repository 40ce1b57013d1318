// The shapes authors write: benchmark.ts and eval.ts. Parsed once at load time; types come from here.
import * as z from "zod";
import { PANEL_COMBINE_RULES } from "./judge-panel.ts";
import { CRITERION_ID } from "../util/criterion-id.ts";

export { CRITERION_ID };
import { DEFAULT_SNAPSHOT_LIMITS } from "../util/evidence-limits.ts";
import { CONTROL_PROVIDER } from "../util/control-model.ts";
import { isPlainRemoteTcp, PLAIN_TCP_REMEDY } from "../util/engine-address.ts";
import { EngineAddressSchema, EnginesSchema } from "./engines-schema.ts";
import { IntegritySettingsSchema, WorkspaceGlobSchema } from "./integrity.ts";
import { InvariantsSchema } from "./invariants.ts";
import { CASE_SCHEMA_MARKER, type CaseSchema } from "./plain-data.ts";

/** `provider/model[#variant]`, as OpenCode names models. */
export const MODEL_ID = /^[\w.-]+\/[^\s/#]+(?:\/[^\s/#]+)*(?:#[\w.-]+)?$/;

const MAX_CANDIDATE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_CANDIDATE_TIMEOUT_MS = 45 * 60 * 1000;
export const DEFAULT_JUDGE_TIMEOUT_MS = 600_000;

const positiveInt = z.number().int().positive();

/** A whole count of at least 1, with one message naming what it counts, whatever is wrong with the value. */
function positiveCount(what: string) {
  const message = `must be a whole number of ${what}, at least 1`;
  return z.number({ message }).int({ message }).positive({ message });
}
const positiveUSD = z.number().positive().finite();

export const ModelIdSchema = z
  .string()
  .regex(MODEL_ID, { message: 'must look like "provider/model" or "provider/model#variant"' });

/**
 * An OpenEval 0.5 key this project has no equivalent for: refused with what to do instead, never
 * validated and then ignored. It parses to nothing.
 */
function openEvalKeyRefused(message: string) {
  return z
    .unknown()
    .superRefine((value, context) => {
      if (value !== undefined)
        context.addIssue({
          code: "custom",
          message: `OpenEval's setting is not supported by this openeval: ${message}`,
        });
    })
    .transform((): undefined => undefined)
    .optional();
}

const WEBSEARCH_REFUSED = openEvalKeyRefused(
  "OpenCode's web search is not offered to candidates or judges here; remove websearch",
);

/**
 * Floors for container limits, checked at load rather than failing when the first container starts. The engines
 * refuse less than 6 MiB of memory; these leave room for what runs inside: OpenCode (a Bun process of about 200 MiB)
 * with the agent's shell and commands for a candidate, a test command for a verification.
 */
export const MIN_CANDIDATE_MEMORY_MIB = 256;
export const MIN_CANDIDATE_PIDS = 64;
export const MIN_VERIFICATION_MEMORY_MIB = 64;

export const VerificationSettingsSchema = z.strictObject({
  image: z.string().min(1).optional(),
  engine: z.enum(["docker", "podman"]).optional(),
  cpus: z.number().positive().optional(),
  memoryMiB: positiveInt
    .min(MIN_VERIFICATION_MEMORY_MIB, {
      message: `must be at least ${MIN_VERIFICATION_MEMORY_MIB} (MiB), room for a test command and its runtime; the default is 4096`,
    })
    .optional(),
});

export const JudgeSettingsSchema = z.strictObject({
  model: ModelIdSchema.optional(),
  /** A panel: each grades every rubric on its own (beside judge.model, or instead of it). */
  models: z.array(ModelIdSchema).min(1).optional(),
  /** How the panel's judgments of a criterion combine (default mean). */
  combine: z.enum(PANEL_COMBINE_RULES).optional(),
  /** Krippendorff's α below which a criterion's judges are unreliable (default 0.67). */
  minAgreement: z.number().min(-1).max(1).optional(),
  /** Recordings with two or more judgments needed before α can call a criterion unreliable (default 2). */
  minAgreementUnits: z.number().int().min(2).optional(),
  /** An unreliable criterion's failures still block (default false: they are advisory). */
  strict: z.boolean().optional(),
  timeoutMs: positiveInt.default(DEFAULT_JUDGE_TIMEOUT_MS),
  maxCostUSD: positiveUSD.optional(),
  verification: VerificationSettingsSchema.optional(),
  websearch: WEBSEARCH_REFUSED,
});

/** Where candidates run: `container` (sandboxed; the default for real models), `process` (this machine). */
export const ISOLATION_BACKENDS = ["container", "process"] as const;

export const CandidateContainerSchema = z
  .strictObject({
    cpus: z.number().positive().optional(),
    memoryMiB: positiveInt
      .min(MIN_CANDIDATE_MEMORY_MIB, {
        message: `must be at least ${MIN_CANDIDATE_MEMORY_MIB} (MiB): OpenCode alone takes about 200 MiB in the container, besides the agent's commands; the default is 4096`,
      })
      .optional(),
    pidsLimit: positiveInt
      .min(MIN_CANDIDATE_PIDS, {
        message: `must be at least ${MIN_CANDIDATE_PIDS}: OpenCode's threads, its shell and the agent's commands all count; the default is 1024`,
      })
      .optional(),
    /** A container engine address (`tcp://host:port`, `unix:///path`), instead of DOCKER_HOST or the local socket. */
    host: EngineAddressSchema.refine((host) => !isPlainRemoteTcp(host, { tls: false }), {
      message: `is plain TCP on an address other than loopback, which makes the engine root on its host for anyone who can reach it: ${PLAIN_TCP_REMEDY}`,
    }).optional(),
    /** A pool of engines work is placed on (each sandbox on the one with the most free capacity); instead of `host`. */
    engines: EnginesSchema.optional(),
  })
  .superRefine((container, context) => {
    if (container.host !== undefined && container.engines !== undefined)
      context.addIssue({
        code: "custom",
        path: ["engines"],
        message: "give either host (one engine) or engines (a pool), not both: one engine is a pool of one",
      });
  });

/** What benchmark.ts may say about the built-in control provider: its models' prices (USD per million tokens). */
const ControlPricingSchema = z.strictObject({
  models: z.record(z.string(), z.strictObject({ cost: z.record(z.string(), z.unknown()) })),
});

export const CandidateSettingsSchema = z.strictObject({
  timeoutMs: positiveInt.max(MAX_CANDIDATE_TIMEOUT_MS).default(DEFAULT_CANDIDATE_TIMEOUT_MS),
  maxCostUSD: positiveUSD.optional(),
  /** Input + output tokens of the session's steps, as recorded: passing it stops the session (`token_limited`). */
  maxTokens: positiveCount("tokens (input + output, as recorded)").optional(),
  /** Model steps (turns): the session is stopped once the model has taken this many and goes on (`step_limited`). */
  maxSteps: positiveCount("model steps").optional(),
  /**
   * OpenCode `provider` config entries, merged into each candidate's inline config. `control` is the built-in scripted
   * provider: only its models' prices may be set (to exercise cost limits), never where it is or how it is reached.
   */
  providers: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .superRefine((providers, context) => {
      if (
        providers[CONTROL_PROVIDER] !== undefined &&
        !ControlPricingSchema.safeParse(providers[CONTROL_PROVIDER]).success
      ) {
        context.addIssue({
          code: "custom",
          path: [CONTROL_PROVIDER],
          message: `"${CONTROL_PROVIDER}" is the built-in provider of the scripted control models; only their prices may be set here, as ${CONTROL_PROVIDER}: { models: { <name>: { cost: { input, output } } } }. Give your own provider another name`,
        });
      }
    })
    .default({}),
  /** Default: `container` for real models, `process` for control models; `--isolation` overrides it. */
  isolation: z.enum(ISOLATION_BACKENDS).optional(),
  container: CandidateContainerSchema.optional(),
  /** Container isolation: hosts (`host` or `host:port`, default port 443) reachable besides the model's provider. */
  network: z
    .strictObject({
      allow: z
        .array(z.string().regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?$/, { message: 'must be "host" or "host:port"' }))
        .default([]),
    })
    .optional(),
  websearch: WEBSEARCH_REFUSED,
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

/** A variant's name: `current` and `baseline` are reserved. */
export const VARIANT_NAME = /^[A-Za-z0-9][\w.-]*$/;
export const RESERVED_VARIANTS = ["current", "baseline"] as const;
/** Text given inline, or `{ file }`: a path relative to the benchmark folder, read at load time. */
const TextOrFileSchema = z.union([z.string(), z.strictObject({ file: z.string().min(1) })]);
/** Where `files` may go: the workspace, or OpenCode's global config dir (skills/, agent/, command/ …). */
function isVariantFilePath(path: string): boolean {
  const [root, ...rest] = path.split("/");
  return (
    (root === "workspace" || root === "config") &&
    rest.length > 0 &&
    rest.every((segment) => segment !== "" && segment !== "." && segment !== ".." && !segment.includes("\0"))
  );
}

/** OpenCode config keys a variant overlay may not touch: the provider and credentials, or what isolation enforces. */
const HARNESS_CONFIG_KEYS: Record<string, string> = {
  provider: "providers and their credentials come from candidate.providers and the user's credentials",
  model: "the model is the candidate's model; list models in models",
  small_model: "the model is the candidate's model; list models in models",
  enabled_providers: "providers come from the candidate's model",
  disabled_providers: "providers come from the candidate's model",
  snapshot: "the harness enforces it for isolation and recording",
  share: "the harness enforces it for isolation and recording",
  autoupdate: "the harness enforces it for isolation and recording",
  plugin: "candidates run with --pure: no external plugins are loaded or installed while a candidate runs",
  instructions: "its paths would reach outside the candidate's isolation; use the variant's instructions",
};
/** Files the harness itself lays: the workspace's git repository, and the config dir's seeded or generated files. */
const HARNESS_FILES =
  /^(workspace\/\.git(\/|$)|workspace\/\.opencode\/(package(-lock)?\.json|node_modules)(\/|$)|config\/(AGENTS\.md|opencode\.jsonc?|config\.json|package(-lock)?\.json|node_modules)(\/|$))/;

/**
 * A named candidate containing only differences from `current`. `agent` is an OpenCode agent definition
 * the session runs as; `config` an OpenCode config overlay; `files` extra files by `workspace/…` or `config/…` path.
 */
export const VariantSchema = z
  .strictObject({
    instructions: TextOrFileSchema.optional(),
    agent: z.record(z.string(), z.unknown()).optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    files: z.record(z.string(), TextOrFileSchema).optional(),
  })
  .superRefine((variant, context) => {
    for (const key of Object.keys(variant.config ?? {}).filter((key) => Object.hasOwn(HARNESS_CONFIG_KEYS, key))) {
      context.addIssue({
        code: "custom",
        path: ["config", key],
        message: `a variant cannot set "${key}": ${HARNESS_CONFIG_KEYS[key]}`,
      });
    }
    if (variant.agent && "model" in variant.agent) {
      context.addIssue({
        code: "custom",
        path: ["agent", "model"],
        message: "a variant cannot change the model: list models in models (a candidate is model × variant)",
      });
    }
    for (const path of Object.keys(variant.files ?? {})) {
      const message = !isVariantFilePath(path)
        ? 'each path must start with "workspace/" or "config/" and hold no empty, "." or ".." segment'
        : HARNESS_FILES.test(path)
          ? "the harness writes this file (isolation, OpenCode config or instructions); use the variant's config or instructions instead"
          : null;
      if (message) context.addIssue({ code: "custom", path: ["files", path], message });
    }
  });

/**
 * Sizes a real benchmark never reaches (the large-plan benchmark measures 50,000 slots), bounded so that a typo such
 * as `repetitions: 1e9` is refused at load instead of growing the plan in memory.
 */
export const MAX_REPETITIONS = 1_000;
/** Slots = evals (each eval's cases, for an eval with cases) × models × (variants + current) × repetitions. */
export const MAX_SLOTS = 1_000_000;

const RepetitionCountSchema = positiveInt.max(MAX_REPETITIONS, {
  message: `must be at most ${MAX_REPETITIONS}; each repetition runs every eval for every model again`,
});

/** What adaptive repetitions decide before they stop: each variant against current, each pair of models, or each candidate against baseline.json. */
export const ADAPTIVE_COMPARISONS = ["variants", "models", "baseline"] as const;

/**
 * Adaptive repetitions: `min` for every slot, then one more round at a time, up to `max`, for the slots of the
 * comparisons not decided yet (docs/guide/adaptive-repetitions.md).
 */
const AdaptiveRepetitionsSchema = z
  .strictObject({
    min: RepetitionCountSchema,
    max: RepetitionCountSchema,
    stopWhen: z.strictObject({
      decided: z.enum(ADAPTIVE_COMPARISONS),
      /** Also decided once the difference is known to lie within ±margin (credit, 0–1). */
      margin: z.number().positive().max(1).optional(),
    }),
  })
  .refine((adaptive) => adaptive.min <= adaptive.max, {
    path: ["min"],
    message: "must be at most max; min repetitions run for every slot, max bounds the rounds",
  });

export const BenchmarkSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    models: z.array(ModelIdSchema).min(1, { message: "list at least one model" }),
    repetitions: z.union([RepetitionCountSchema, AdaptiveRepetitionsSchema]).default(3),
    concurrency: positiveInt.optional(),
    judge: JudgeSettingsSchema.default({ timeoutMs: DEFAULT_JUDGE_TIMEOUT_MS }),
    candidate: CandidateSettingsSchema.default({ timeoutMs: DEFAULT_CANDIDATE_TIMEOUT_MS, providers: {} }),
    gates: GatesSchema.optional(),
    evidence: EvidenceSettingsSchema.default(DEFAULT_SNAPSHOT_LIMITS),
    /** Which verdict contributors are enabled (all by default); the CLI's --gate/--only/--no-llm-judge come after. */
    verdict: z
      .strictObject({
        "code-judge": z.boolean().optional(),
        "llm-judge": z.boolean().optional(),
        gates: z.boolean().optional(),
        regression: z.boolean().optional(),
        integrity: z.boolean().optional(),
        invariants: z.boolean().optional(),
      })
      .optional(),
    /** Which integrity findings fail the verdict and which only warn. */
    integrity: IntegritySettingsSchema.optional(),
    /** Run-level checks over the run's summary or final workspaces: the `invariants` verdict contributor. */
    invariants: InvariantsSchema.optional(),
    variants: z.record(z.string(), VariantSchema).default({}),
    /** OpenEval 0.5: compose the benchmark from the criteria in these categories (checked against the evals at load). */
    categories: z.array(z.string()).min(1, { message: "list at least one category, or remove categories" }).optional(),
    suite: openEvalKeyRefused("runs are grouped by benchmark folder here; name the benchmark with name"),
    container: openEvalKeyRefused(
      "set candidate.container ({ cpus, memoryMiB, host }) and candidate.isolation; the engine comes from DOCKER_HOST or candidate.container.host, and the image is this openeval's own candidate image (openeval image)",
    ),
  })
  .superRefine((benchmark, context) => {
    const seen = new Set<string>();
    benchmark.models.forEach((model, index) => {
      if (seen.has(model)) {
        context.addIssue({ code: "custom", path: ["models", index], message: `duplicate model "${model}"` });
      }
      seen.add(model);
    });
    const adaptive = typeof benchmark.repetitions === "number" ? null : benchmark.repetitions;
    if (adaptive?.stopWhen.decided === "variants" && Object.keys(benchmark.variants).length === 0)
      context.addIssue({
        code: "custom",
        path: ["repetitions", "stopWhen", "decided"],
        message:
          '"variants" compares each variant with current, and benchmark.ts declares no variant; add one, or decide "models" or "baseline"',
      });
    if (adaptive?.stopWhen.decided === "models" && benchmark.models.length < 2)
      context.addIssue({
        code: "custom",
        path: ["repetitions", "stopWhen", "decided"],
        message:
          '"models" compares each pair of models, and benchmark.ts lists one; add a model, or decide "variants" or "baseline"',
      });
    for (const name of Object.keys(benchmark.variants)) {
      if ((RESERVED_VARIANTS as readonly string[]).includes(name)) {
        context.addIssue({
          code: "custom",
          path: ["variants", name],
          message: `"${name}" is a reserved variant name (current runs without overrides, baseline is an accepted run); rename the variant`,
        });
      } else if (!VARIANT_NAME.test(name)) {
        context.addIssue({
          code: "custom",
          path: ["variants", name],
          message: 'variant names use only letters, digits, ".", "_" and "-"',
        });
      }
    }
  })
  // Slots are planned up to `repetitions` (adaptive: max); `adaptive` says how many of them run.
  .transform(({ repetitions, ...benchmark }) => ({
    ...benchmark,
    repetitions: typeof repetitions === "number" ? repetitions : repetitions.max,
    adaptive:
      typeof repetitions === "number"
        ? null
        : {
            min: repetitions.min,
            max: repetitions.max,
            decided: repetitions.stopWhen.decided,
            margin: repetitions.stopWhen.margin ?? null,
          },
  }));

export type AdaptiveRepetitions = NonNullable<BenchmarkSettings["adaptive"]>;

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

/** How long one prepare step may run (OpenEval's 180 s); past it the step is killed and the run is a preparation error. */
export const PREPARE_STEP_TIMEOUT_MS = 180_000;

/** A folder inside the workspace, relative to its root ("." is the root): no absolute path, no "..", no NUL. */
function isWorkspaceFolder(cwd: string): boolean {
  if (cwd === "" || cwd.includes("\0") || cwd.startsWith("/") || cwd.startsWith("\\") || /^[A-Za-z]:/.test(cwd))
    return false;
  return cwd
    .replaceAll("\\", "/")
    .split("/")
    .every((segment) => segment !== "..");
}

/** `a/./b/` → `a/b`, `./` → `.`: one spelling per folder, so the fingerprint does not change with the spelling. */
function normalizeFolder(cwd: string): string {
  const segments = cwd
    .replaceAll("\\", "/")
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".");
  return segments.length === 0 ? "." : segments.join("/");
}

/** OpenEval's preparation step: argv (no shell) run in `cwd` of the candidate's workspace before its initial snapshot. */
export const PrepareStepSchema = z.strictObject({
  cwd: z
    .string()
    .refine(isWorkspaceFolder, {
      message:
        'must be a folder inside the workspace, relative to its root ("." for the root), without ".." or an absolute path',
    })
    .transform(normalizeFolder)
    .default("."),
  argv: z
    .array(z.string())
    .min(1, { message: 'give the command and its arguments as a list, e.g. ["npm", "install"]' })
    .refine((argv) => argv[0] !== "", { message: "the command (argv[0]) is empty; name the program to run" }),
});

/** A git ref name as OpenEval takes it: word characters, ".", "/" and "-", no "..", not starting with "-" or "/". */
const GIT_REF = z
  .string()
  .regex(/^[\w./-]+$/, { message: 'must be a git ref name (letters, digits, "_", ".", "/" and "-")' })
  .refine((ref) => !ref.includes("..") && !/^[-/]|\/$|\.lock$/.test(ref), {
    message: 'is not a usable git ref name (no "..", no leading "-" or "/", no trailing "/" or ".lock")',
  });
/** A folder name the workspace gets (the checkout, the `<remote>.git` repository). */
const SIMPLE_NAME = z
  .string()
  .regex(/^[\w-][\w.-]*$/, { message: 'must be a simple name (letters, digits, "_", "." and "-"), not a path' });
/** A folder of the eval (overlay, a revision's files), relative to it. */
const EVAL_FOLDER = z
  .string()
  .refine(isWorkspaceFolder, {
    message: 'must be a folder of the eval, relative to its folder, without ".." or an absolute path',
  })
  .transform(normalizeFolder)
  .refine((folder) => folder !== "." && folder.split("/")[0] !== "workspace", {
    message:
      "must be a folder inside the eval other than the eval itself or workspace/ (the candidate gets the repository, not workspace/)",
  });
/** A repository the harness can fetch one commit from without credentials: https, file://, or a local path. */
function isFetchableRepository(repository: string): boolean {
  if (/^https:\/\//.test(repository)) return !/^https:\/\/[^/]*@/.test(repository);
  if (/^file:\/\//.test(repository)) return true;
  return !/^[a-z][\w+.-]*:\/\//i.test(repository) && !/^[^/]+@[^/]+:/.test(repository);
}

/**
 * OpenEval's repository workspace: one commit of `repository` fetched alone (depth 1), or a history built from
 * `revisions`, cloned into `checkout/` beside a bare `<remote>.git` it tracks; `overlay` is copied over the checkout.
 */
export const EvalWorkspaceSettingsSchema = z
  .strictObject({
    repository: z
      .string()
      .min(1)
      .refine(isFetchableRepository, {
        message:
          "must be a credential-free https:// URL, a file:// URL or a local path (relative to the eval's folder)",
      })
      .optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/, { message: "must be the full 40-character commit id (lowercase hex)" })
      .optional(),
    revisions: z
      .array(
        z.strictObject({
          ref: GIT_REF,
          directory: EVAL_FOLDER,
          message: z.string().min(1, { message: "give the revision's commit message" }),
        }),
      )
      .min(1, { message: "list at least one revision, or use repository and commit" })
      .optional(),
    ref: GIT_REF,
    overlay: EVAL_FOLDER.optional(),
    checkout: SIMPLE_NAME.default("checkout"),
    remote: SIMPLE_NAME.default("upstream"),
  })
  .superRefine((workspace, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    if ((workspace.repository === undefined) === (workspace.revisions === undefined)) {
      issue("repository", "give either repository (with commit) or revisions, not both or neither");
    }
    if (workspace.repository !== undefined && workspace.commit === undefined)
      issue("commit", "a repository workspace needs the commit to check out (its full 40-character id)");
    if (workspace.revisions !== undefined && workspace.commit !== undefined)
      issue("commit", "revisions build their own history; remove commit (it pins a repository's commit)");
    if (workspace.revisions) {
      const refs = workspace.revisions.map((revision) => revision.ref);
      if (refs.includes("preparation"))
        issue("revisions", '"preparation" is reserved while the history is built; name the revision\'s ref otherwise');
      if (new Set(refs).size !== refs.length) issue("revisions", "each revision needs its own ref");
      if (!refs.includes(workspace.ref))
        issue("ref", `must be one of the revisions' refs (${refs.join(", ")}): the checkout starts there`);
    }
    if (workspace.checkout === `${workspace.remote}.git`)
      issue(
        "checkout",
        `is the name of the remote's repository folder (${workspace.remote}.git); name the checkout otherwise`,
      );
  });

/** A case's id: unique in its eval, a folder name (`cases/<id>/`) and part of its slots' keys. */
export const CASE_ID = /^[A-Za-z0-9][\w.-]*$/;
export const CASE_ID_RULE = 'starts with a letter or digit and holds only letters, digits, "_", "." and "-"';

/** One line of a case file: a case's typed input, the expected evidence judges may compare against, its tags. */
export const CaseLineSchema = z.strictObject({
  id: z
    .string({ error: "give each case an id (a string)" })
    .regex(CASE_ID, { message: `must be an id that ${CASE_ID_RULE}` }),
  input: z.record(z.string(), z.unknown(), { error: "give the case's input as a JSON object" }),
  expected: z.unknown().optional(),
  tags: z.array(z.string().min(1)).optional(),
});

/** A schema eval.ts gives for every case's input or expected value; the config worker keeps it and checks each line. */
const CaseSchemaMarker = z
  .custom<CaseSchema>((value) => value === CASE_SCHEMA_MARKER, {
    message: "must be a schema (a zod schema, or another Standard Schema) every case's value is checked against",
  })
  .transform((): true => true);

/** The case file every eval with cases may have beside its own: reviewed regression cases, tagged `regression`. */
export const REGRESSION_CASE_FILE = "regression.cases.jsonl";
export const DEFAULT_CASE_FILE = "cases.jsonl";

/** A case file's name: a `.jsonl` file of the eval, relative to its folder. */
const CASE_FILE = z
  .string()
  .refine((file) => isWorkspaceFolder(file) && file.endsWith(".jsonl"), {
    message: 'must be a .jsonl file of the eval, relative to its folder, without ".." or an absolute path',
  })
  .transform(normalizeFolder)
  .refine((file) => file !== REGRESSION_CASE_FILE, {
    message: `${REGRESSION_CASE_FILE} is always loaded beside the case file; name the case file otherwise`,
  });

/** eval.ts `cases`: the case file, and the schemas every line's input and expected value must satisfy. */
export const EvalCasesSettingsSchema = z.strictObject({
  file: CASE_FILE.optional(),
  input: CaseSchemaMarker.optional(),
  expected: CaseSchemaMarker.optional(),
});

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
    /** The candidate's starting workspace from a git repository, instead of the eval's workspace/ folder. */
    workspace: EvalWorkspaceSettingsSchema.optional(),
    /** Steps run in order in the candidate's isolation before its initial snapshot: their output earns no credit. */
    prepare: z.array(PrepareStepSchema).default([]),
    /** Workspace globs a candidate must not create, edit or delete: an integrity finding when it does. */
    protected: z.array(WorkspaceGlobSchema).optional(),
    /** Workspace globs of the files a verification executes: changing one is checker tampering. */
    checkers: z.array(WorkspaceGlobSchema).optional(),
    /** Many typed inputs for one eval: a case file, checked line by line against these schemas. */
    cases: EvalCasesSettingsSchema.optional(),
  })
  .superRefine((settings, context) => {
    if (settings.timeoutMs !== undefined && settings.candidate?.timeoutMs !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["timeoutMs"],
        message: "is an alias of candidate.timeoutMs; give the timeout once, as candidate: { timeoutMs }",
      });
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
export type VariantSettings = z.output<typeof VariantSchema>;
export type PrepareStep = z.output<typeof PrepareStepSchema>;
export type EvalWorkspaceSettings = z.output<typeof EvalWorkspaceSettingsSchema>;
export type EvalCasesSettings = z.output<typeof EvalCasesSettingsSchema>;
export type CaseLine = z.output<typeof CaseLineSchema>;
