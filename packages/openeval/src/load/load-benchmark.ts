// benchmark.ts + evals/ → BenchmarkDefinition. Every problem in every file is collected and reported together.
import { existsSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { BenchmarkInvalidError, type LoadProblem } from "./errors.ts";
import { ConfigInvalidError, createConfigImporter, type ConfigImporter } from "./import-config.ts";
import { loadEval, type EvalDefinition } from "./load-eval.ts";
import { BenchmarkSchema, MAX_SLOTS, MODEL_ID, type BenchmarkSettings } from "./schema.ts";
import { loadVariants, type VariantDefinition } from "./variants.ts";
import { judgePanelOf, judgePanelProblems } from "./judge-panel.ts";
import { BUILT_IN_CONTROLS } from "./built-in-controls.ts";
import { HARBOR_REWARD } from "./harbor-task.ts";
import { composeByCategories } from "./compose-categories.ts";
import { CONTROL_PROVIDER, controlName, isControlModel } from "../util/control-model.ts";

export interface BenchmarkDefinition {
  name: string;
  /** Absolute path of the folder holding benchmark.ts and evals/. */
  directory: string;
  settings: BenchmarkSettings;
  /** In folder-name order. */
  evals: EvalDefinition[];
  /** benchmark.ts `variants`, in the order written; `current` is not among them (it has no definition). */
  variants: VariantDefinition[];
  /**
   * benchmark.ts `categories` as keys, when it composes the benchmark from them: `evals` are then only those with a
   * criterion in them, each eval's `criteria` only those, and undeclared criteria a judge.ts returns are not scored.
   */
  categories: string[] | null;
}

/** An eval folder's name, which is its id. */
export const EVAL_ID = /^[A-Za-z0-9][\w.-]*$/;

/**
 * Loads and validates a benchmark without running any judge code.
 * @example
 * const benchmark = await loadBenchmark("./");
 * console.log(benchmark.evals.map((evaluation) => evaluation.id));
 * @throws BenchmarkInvalidError listing every problem, each with its file.
 */
export async function loadBenchmark(path: string): Promise<BenchmarkDefinition> {
  const directory = resolve(path.endsWith("benchmark.ts") ? dirname(path) : path);
  const file = join(directory, "benchmark.ts");
  if (!existsSync(file)) {
    throw new BenchmarkInvalidError([
      { file: "benchmark.ts", message: `not found in ${directory}; create it or pass --benchmark <dir>` },
    ]);
  }
  const problems: LoadProblem[] = [];
  const importer = createConfigImporter();
  let settings: BenchmarkSettings | null = null;
  const evals: EvalDefinition[] = [];
  let variants: VariantDefinition[] = [];
  try {
    settings = await importSettings(importer, file, problems);
    if (settings) variants = await loadVariants(directory, settings, problems);
    for (const id of await listEvalFolders(directory, problems)) {
      const loaded = await loadEval(id, join(directory, "evals", id), directory, importer);
      problems.push(...loaded.problems);
      if (loaded.definition) evals.push(loaded.definition);
    }
  } finally {
    importer.close();
  }
  const composed = composeByCategories(settings?.categories, evals, problems);
  if (settings)
    problems.push(...checkAcrossEvals(settings, composed.evals), ...variantWorkspaceProblems(variants, composed.evals));
  if (problems.length > 0 || !settings) throw new BenchmarkInvalidError(problems);
  return {
    name: settings.name ?? basename(directory),
    directory,
    settings,
    evals: composed.evals,
    variants,
    categories: composed.keys,
  };
}

async function importSettings(
  importer: ConfigImporter,
  file: string,
  problems: LoadProblem[],
): Promise<BenchmarkSettings | null> {
  try {
    return await importer.import(file, BenchmarkSchema);
  } catch (error) {
    const messages = error instanceof ConfigInvalidError ? error.messages : [(error as Error).message];
    problems.push(...messages.map((message) => ({ file: "benchmark.ts", message })));
    return null;
  }
}

async function listEvalFolders(directory: string, problems: LoadProblem[]): Promise<string[]> {
  const evalsDirectory = join(directory, "evals");
  if (!existsSync(evalsDirectory)) {
    problems.push({
      file: "evals",
      message: "folder not found; create evals/<id>/prompt.md with a judge.md or judge.ts",
    });
    return [];
  }
  const names = (await readdir(evalsDirectory))
    .filter((name) => !name.startsWith(".") && statSync(join(evalsDirectory, name)).isDirectory())
    .sort();
  if (names.length === 0) problems.push({ file: "evals", message: "has no eval folders; add evals/<id>/" });
  for (const name of names.filter((candidate) => !EVAL_ID.test(candidate))) {
    problems.push({
      file: `evals/${name}`,
      message: `eval id "${name}" must use only letters, digits, ".", "_" and "-"`,
    });
  }
  return names.filter((name) => EVAL_ID.test(name));
}

/**
 * Checks a model list given on the command line (`--model`) as benchmark.ts's own list is checked; the slot count is
 * bounded with benchmark.ts's models added, as `run --model` adds them.
 * @throws BenchmarkInvalidError naming each bad model.
 */
export function checkModelOverride(benchmark: BenchmarkDefinition, models: readonly string[]): void {
  const problems: LoadProblem[] = models
    .filter((model) => !MODEL_ID.test(model))
    .map((model) => ({
      file: "--model",
      message: `"${model}" must look like "provider/model" or "provider/model#variant"`,
    }));
  problems.push(
    ...controlFileProblems(models, benchmark.evals),
    ...slotCountProblems("--model", benchmark.settings, benchmark.evals, [
      ...new Set([...benchmark.settings.models, ...models]),
    ]),
  );
  if (problems.length > 0) throw new BenchmarkInvalidError(problems);
}

/** A variant's workspace files have nowhere to go in an eval whose workspace is its environment image's. */
function variantWorkspaceProblems(
  variants: readonly VariantDefinition[],
  evals: readonly EvalDefinition[],
): LoadProblem[] {
  const confined = evals.filter((evaluation) => evaluation.environment).map((evaluation) => evaluation.id);
  if (confined.length === 0) return [];
  return variants.flatMap((variant) => {
    const paths = Object.keys(variant.files).filter((path) => path.startsWith("workspace/"));
    return paths.length === 0
      ? []
      : [
          {
            file: "benchmark.ts",
            message: `variants.${variant.name}.files: ${paths.join(", ")} cannot be laid in ${confined.join(", ")}, whose workspace is ${confined.length === 1 ? "its" : "their"} environment image's working directory; put the file in the environment's Dockerfile, or use the variant's instructions or config/ files`,
          },
        ];
  });
}

/**
 * A scripted judge variant `control/judge#<name>` that no control file of a judge.md eval declares (`judges.<name>`)
 * would grade exactly as control/judge does: a typo, said at load.
 */
function judgeVariantProblems(models: readonly string[], rubricEvals: readonly EvalDefinition[]): LoadProblem[] {
  return models.flatMap((model) => {
    const [name, variant] = model.split("#");
    if (name !== `${CONTROL_PROVIDER}/judge` || variant === undefined) return [];
    const declared = rubricEvals.some((evaluation) =>
      Object.values(evaluation.controls).some((control) => Object.hasOwn(control.judges ?? {}, variant)),
    );
    if (declared) return [];
    return [
      {
        file: "benchmark.ts",
        message: `judge.models: ${model} plays a control file's judges.${variant} verdict, and no control of an eval with judge.md declares one; add "judges": { "${variant}": { … } } to a control file, or fix the name`,
      },
    ];
  });
}

function earlyStops(evaluation: EvalDefinition): boolean {
  return evaluation.settings.earlyStop !== undefined && evaluation.settings.earlyStop !== false;
}

/** Rules that need both benchmark.ts and the evals. */
function checkAcrossEvals(settings: BenchmarkSettings, evals: EvalDefinition[]): LoadProblem[] {
  const problems: LoadProblem[] = [];
  const rubricEvals = evals.filter((evaluation) => evaluation.rubric !== null);
  const panel = judgePanelOf(settings);
  if (rubricEvals.length > 0 && panel.models.length === 0) {
    problems.push({
      file: "benchmark.ts",
      message: `judge.model is required because ${rubricEvals.map((evaluation) => evaluation.id).join(", ")} ha${rubricEvals.length === 1 ? "s" : "ve"} judge.md`,
    });
  }
  problems.push(...judgePanelProblems(settings).map((message) => ({ file: "benchmark.ts", message })));
  problems.push(...judgeVariantProblems(panel.models, rubricEvals));
  const earlyPanel = panel.models.length > 1 ? rubricEvals.filter((evaluation) => earlyStops(evaluation)) : [];
  if (earlyPanel.length > 0) {
    problems.push({
      file: "benchmark.ts",
      message: `judge.models: a panel cannot decide early, since an earlyStop check is one judge's decision; remove earlyStop from ${earlyPanel.map((evaluation) => evaluation.id).join(", ")}, or grade with one judge model`,
    });
  }
  const earlyStopEvals = evals.filter(earlyStops);
  if (earlyStopEvals.length > 0 && settings.concurrency === 1) {
    problems.push({
      file: "benchmark.ts",
      message: `concurrency 1 leaves no lane for the earlyStop checks of ${earlyStopEvals.map((evaluation) => evaluation.id).join(", ")}; set concurrency to 2 or more, or remove earlyStop`,
    });
  }
  problems.push(
    ...controlFileProblems(settings.models, evals),
    ...gateCriterionProblems(settings, evals),
    ...earlyStopModelProblems(settings.models, evals),
    ...slotCountProblems("benchmark.ts", settings, evals, settings.models),
  );
  return problems;
}

/** Every slot is planned, recorded and summarized: past MAX_SLOTS the benchmark is refused before planning starts. */
function slotCountProblems(
  file: string,
  settings: BenchmarkSettings,
  evals: readonly EvalDefinition[],
  models: readonly string[],
): LoadProblem[] {
  const candidates = Object.keys(settings.variants).length + 1;
  // An eval with cases has a slot per case.
  const units = evals.reduce((sum, evaluation) => sum + (evaluation.cases?.length ?? 1), 0);
  const slots = units * models.length * candidates * settings.repetitions;
  if (slots <= MAX_SLOTS) return [];
  const what = units === evals.length ? `${evals.length} evals` : `${evals.length} evals (${units} with their cases)`;
  const shape = `${what} × ${models.length} models × ${candidates} variants (current included) × ${settings.repetitions} repetitions`;
  return [
    {
      file,
      message: `${shape} make ${slots.toLocaleString("en-US")} slots, over the limit of ${MAX_SLOTS.toLocaleString("en-US")}; lower repetitions, or split the benchmark`,
    },
  ];
}

/** An earlyStop `onlyModels` entry benchmark.ts does not list would never be checked: a typo, said at load. */
function earlyStopModelProblems(models: readonly string[], evals: readonly EvalDefinition[]): LoadProblem[] {
  return evals.flatMap((evaluation) => {
    const setting = evaluation.settings.earlyStop;
    const unknown =
      typeof setting === "object" ? (setting.onlyModels ?? []).filter((model) => !models.includes(model)) : [];
    return unknown.map((model) => ({
      file: join("evals", evaluation.id, "eval.ts"),
      message: `earlyStop.onlyModels: "${model}" is not a model of benchmark.ts; the models are: ${models.join(", ")}`,
    }));
  });
}

/**
 * A `gates.criteria.<id>` must name a criterion some eval declares (a judge.md heading, or judge.ts's
 * `export const criteria`): a gate on a criterion that only appears when a judge runs would run every slot and
 * could still never be decided.
 */
function gateCriterionProblems(settings: BenchmarkSettings, evals: EvalDefinition[]): LoadProblem[] {
  // A Harbor task's verifier scores `reward` (its reward.txt); reward.json's keys are known only when it runs.
  const declared = [
    ...new Set([
      ...evals.flatMap((evaluation) => evaluation.criteria.map((criterion) => criterion.id)),
      ...(evals.some((evaluation) => evaluation.harbor) ? [HARBOR_REWARD] : []),
    ]),
  ].sort();
  const undeclaring = evals
    .filter((evaluation) => evaluation.code !== null && evaluation.code.criteria === null)
    .map((evaluation) => `evals/${evaluation.id}/judge.ts`);
  const hint =
    undeclaring.length === 0
      ? ""
      : `; a gate needs its criterion declared: list the criteria ${undeclaring.join(", ")} return${undeclaring.length === 1 ? "s" : ""} in \`export const criteria\``;
  return Object.keys(settings.gates?.criteria ?? {})
    .filter((id) => !declared.includes(id))
    .map((id) => ({
      file: "benchmark.ts",
      message: `gates.criteria.${id}: no eval declares a criterion "${id}"; the criteria are: ${declared.join(", ") || "(none)"}${hint}`,
    }));
}

function controlFileProblems(models: readonly string[], evals: EvalDefinition[]): LoadProblem[] {
  const problems: LoadProblem[] = [];
  const controlNames = models.filter(isControlModel).map(controlName);
  for (const evaluation of evals) {
    for (const name of controlNames.filter((control) => !(control in evaluation.controls))) {
      problems.push({
        file: `evals/${evaluation.id}/controls`,
        message: (BUILT_IN_CONTROLS as readonly string[]).includes(name)
          ? `model "control/${name}" is built in only for evals with environment/${name === "oracle" ? " and solution/solve.sh" : ""}, which ${evaluation.id} does not have; remove the model (\`openeval calibrate\` runs the oracle and nop of every eval that has them)`
          : `model "control/${name}" needs evals/${evaluation.id}/controls/${name}.json; write the control or remove the model`,
      });
    }
  }
  return problems;
}
