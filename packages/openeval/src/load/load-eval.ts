// One eval folder → EvalDefinition. Collects every problem it finds rather than stopping at the first.
import { existsSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { loadControlFile, type ControlFile } from "@openeval/control-model";
import { sha256 } from "../util/hash.ts";
import { bundleCodeJudge, type CodeJudgeBundle } from "./code-judge-bundle.ts";
import { ConfigInvalidError, type ConfigImporter } from "./import-config.ts";
import { listEvalFiles, type EvalFile } from "./inside-benchmark.ts";
import { parsePrompt, type EvalPrompt } from "./prompt.ts";
import { parseRubric, type Rubric } from "./rubric.ts";
import { EvalSettingsSchema, type EvalSettings } from "./schema.ts";
import { loadGitWorkspace, loadWorkspace, type EvalWorkspace } from "./workspace.ts";
import { loadEnvironment, type EvalEnvironment } from "./environment.ts";
import { BUILT_IN_CONTROLS, builtInControls } from "./built-in-controls.ts";
import { harborEnvironment, isHarborTask, mapHarborTask, readTaskToml, type HarborTask } from "./harbor-task.ts";
import { CodedLoadError, type LoadProblem } from "./errors.ts";
import { evalIntegrity, type EvalIntegrity } from "./integrity.ts";
import { CASE_OVERLAYS_FOLDER, caseOf, loadEvalCases, type EvalCase } from "./eval-cases.ts";
import { caseFilesOf } from "./case-files.ts";

export interface Criterion {
  id: string;
  label: string;
  source: "judge.md" | "judge.ts";
  /** Category keys (OpenEval 0.5), trimmed and lowercased; empty when the criterion has none. */
  categories: string[];
}

export interface JudgeFile {
  path: string;
  sha256: string;
}

export interface EvalDefinition {
  id: string;
  directory: string;
  prompt: EvalPrompt;
  settings: EvalSettings;
  rubric: Rubric | null;
  code: CodeJudgeBundle | null;
  /** Criteria known before judging: all of judge.md's, plus judge.ts's when it declares them. */
  criteria: Criterion[];
  workspace: EvalWorkspace;
  /** environment/: the image its candidates run in, built from its Dockerfile; null: the standard candidate image. */
  environment: EvalEnvironment | null;
  /** A Harbor task's verifier and what its task.toml became; null for an ordinary eval. */
  harbor: HarborTask | null;
  /** Files only judges may read (reference fixes, fixtures); they enter the judge fingerprint. */
  judgeFiles: JudgeFile[];
  controls: Record<string, ControlFile>;
  /** What the integrity check protects and looks for in its eval runs. */
  integrity: EvalIntegrity;
  /** Its cases (cases.jsonl, regression.cases.jsonl), each with its own prompt; null for an eval without cases. */
  cases: EvalCase[] | null;
}

/** The eval's reference fix (a unified diff in Markdown): the reference-fix scorer's input, judge-only. */
export const REFERENCE_FIX_FILE = "REFERENCE_FIX.md";

/** Harness files of an eval that only judges see (its other judge-only files are its judgeFiles). */
const JUDGE_ENTRIES = ["judge.md", "judge.ts", "controls"];

/** Files and folders of an eval that are not judge-only material. */
const HARNESS_ENTRIES = new Set([
  "prompt.md",
  "judge.md",
  "judge.ts",
  "eval.ts",
  "workspace",
  "environment",
  "controls",
  "node_modules",
]);

export async function loadEval(
  id: string,
  directory: string,
  benchmarkDirectory: string,
  importer: ConfigImporter,
): Promise<{ definition: EvalDefinition | null; problems: LoadProblem[] }> {
  const problems: LoadProblem[] = [];
  const at = (name: string) => relative(benchmarkDirectory, join(directory, name));
  async function attempt<T>(name: string, step: () => Promise<T>): Promise<T | null> {
    try {
      return await step();
    } catch (error) {
      const messages =
        error instanceof ConfigInvalidError ? error.messages : [error instanceof Error ? error.message : String(error)];
      const code = error instanceof CodedLoadError ? { code: error.code } : {};
      problems.push(...messages.map((message) => ({ file: at(name), message, ...code })));
      return null;
    }
  }

  // Before anything is read: an entry that leads out of the benchmark folder is never followed.
  const listed = await attempt(".", async () => listEvalFiles(directory, benchmarkDirectory));
  if (!listed || listed.problems.length > 0)
    return { definition: null, problems: [...problems, ...(listed?.problems ?? [])] };
  const has = (name: string) => existsSync(join(directory, name));
  const harborTask = isHarborTask(directory);
  if (harborTask) problems.push(...harborConflicts(has, at));
  else if (!has("prompt.md") || (!has("judge.md") && !has("judge.ts"))) {
    const missing = [!has("prompt.md") && "prompt.md", !has("judge.md") && !has("judge.ts") && "judge.md or judge.ts"];
    problems.push({
      file: relative(benchmarkDirectory, directory),
      message: `an eval needs prompt.md and at least one of judge.md / judge.ts; missing: ${missing.filter(Boolean).join(", ")}`,
    });
  }

  const toml = harborTask ? await attempt("task.toml", async () => readTaskToml(directory)) : null;
  const harborImage = toml
    ? await attempt(toml.environment?.docker_image === undefined ? "environment" : "task.toml", async () =>
        harborEnvironment(directory, toml),
      )
    : null;
  const harbor =
    toml && harborImage
      ? await attempt("instruction.md", async () => mapHarborTask(directory, toml, harborImage))
      : null;
  const prompt = harbor
    ? harbor.prompt
    : has("prompt.md")
      ? await attempt("prompt.md", async () => parsePrompt(readFileSync(join(directory, "prompt.md"))))
      : null;
  const settings = harbor
    ? harbor.settings
    : has("eval.ts")
      ? await attempt("eval.ts", () => importer.import(join(directory, "eval.ts"), EvalSettingsSchema))
      : harborTask
        ? null
        : EvalSettingsSchema.parse({});
  const loadedCases =
    settings && !harborTask
      ? await attempt(".", () =>
          loadEvalCases(directory, settings.cases, has("prompt.md") && prompt ? prompt.text : null, importer),
        )
      : null;
  for (const problem of loadedCases?.problems ?? []) problems.push({ file: at(problem.at), message: problem.message });
  const cases = loadedCases?.cases ?? null;
  if (harborTask && caseFilesOf(undefined).some(has)) {
    problems.push({
      file: at(caseFilesOf(undefined)[0]!),
      message: "a Harbor task takes no cases; remove the case file",
    });
  }
  if (cases?.some((item) => item.overlay) && (settings?.workspace || has("environment"))) {
    problems.push({
      file: at(CASE_OVERLAYS_FOLDER),
      message:
        "per-case overlays are laid over the eval's workspace/ folder, and this eval's candidates start from a repository or environment/'s image; put the case's files in its input instead",
    });
  }
  const rubric = has("judge.md")
    ? await attempt("judge.md", async () => parseRubric(readFileSync(join(directory, "judge.md"), "utf8")))
    : null;
  const code = has("judge.ts")
    ? await attempt("judge.ts", () => bundleCodeJudge(join(directory, "judge.ts"), benchmarkDirectory))
    : null;
  const workspaceSettings = settings?.workspace;
  if (workspaceSettings && has("workspace")) {
    problems.push({
      file: at("eval.ts"),
      message:
        "workspace: the candidate starts from the repository, so the workspace/ folder would be ignored; move its files to a folder named by workspace.overlay, or remove one of them",
    });
  }
  const workspace = workspaceSettings
    ? await attempt("eval.ts", () => loadGitWorkspace(workspaceSettings, directory))
    : await attempt("workspace", () => loadWorkspace(has("workspace") ? join(directory, "workspace") : null));
  const environment = harborTask
    ? harborImage
    : has("environment")
      ? await attempt("environment", async () => loadEnvironment(join(directory, "environment")))
      : null;
  if (environment) problems.push(...environmentConflicts(settings, has("workspace"), at));
  const controls = await attempt("controls", async () => ({
    ...(await loadControls(join(directory, "controls"))),
    ...builtInControls(directory, environment !== null, harbor?.harbor.solutionEnv),
  }));
  const judgeFiles = await attempt(".", async () =>
    listJudgeFiles(
      listed.files,
      [...workspaceFolders(workspaceSettings), ...caseInputs(settings)],
      harborTask ? HARBOR_ENTRIES : [],
    ),
  );

  if (settings?.earlyStop && has("judge.ts")) {
    problems.push({
      file: at("eval.ts"),
      message:
        "earlyStop needs a Markdown-only judge (judge.ts grades finalized recordings); remove earlyStop or judge.ts",
    });
  }
  const capped = rubric?.criteria.filter((criterion) => criterion.ceiling === "reference_fix") ?? [];
  if (capped.length > 0 && settings?.earlyStop) {
    problems.push({
      file: at("eval.ts"),
      message: `earlyStop decides on a snapshot of a running candidate, and ${capped.map((criterion) => criterion.id).join(", ")} ${capped.length === 1 ? "is" : "are"} capped by the reference fix, which scores the final changes; remove earlyStop or the Ceiling line`,
    });
  }
  if (capped.length > 0 && !has(REFERENCE_FIX_FILE)) {
    problems.push({
      file: at("judge.md"),
      message: `${capped.map((criterion) => criterion.id).join(", ")}: Ceiling: reference_fix caps a score at the reference-fix scorer's value, and this eval has no ${REFERENCE_FIX_FILE}; add it, or remove the Ceiling line`,
    });
  }
  const criteria = [
    ...(rubric?.criteria.map(({ id, label, categories }) => ({ id, label, categories, source: "judge.md" as const })) ??
      []),
    ...(code?.criteria?.map(({ id, label, categories }) => ({
      id,
      label: label ?? id,
      categories,
      source: "judge.ts" as const,
    })) ?? []),
  ];
  for (const duplicate of duplicateIds(criteria)) {
    problems.push({
      file: at("judge.ts"),
      message: `criterion "${duplicate}" is declared in both judge.md and judge.ts; give one of them another id`,
    });
  }

  if (problems.length > 0 || !prompt || !settings || !workspace || !controls || !judgeFiles)
    return { definition: null, problems };
  return {
    definition: {
      id,
      directory,
      prompt,
      settings,
      rubric,
      code,
      criteria,
      workspace,
      environment,
      harbor: harbor?.harbor ?? null,
      judgeFiles,
      controls,
      integrity: evalIntegrity(settings, harborTask, [
        ...judgeFiles.map((file) => file.path),
        ...listed.files.map((file) => file.path).filter((path) => JUDGE_ENTRIES.includes(path.split("/")[0]!)),
      ]),
      cases,
    },
    problems,
  };
}

/** What an eval with environment/ cannot also have: its candidates start from the image's working directory. */
function environmentConflicts(
  settings: EvalSettings | null,
  hasWorkspaceFolder: boolean,
  at: (name: string) => string,
): LoadProblem[] {
  const remedy = "bake it into environment/Dockerfile (COPY the files, RUN the steps) under its WORKDIR";
  return [
    ...(hasWorkspaceFolder
      ? [{ file: at("workspace"), message: `the candidate starts from environment/'s image, so ${remedy}` }]
      : []),
    ...(settings?.workspace
      ? [{ file: at("eval.ts"), message: `workspace: the candidate starts from environment/'s image; ${remedy}` }]
      : []),
    ...(settings && settings.prepare.length > 0
      ? [{ file: at("eval.ts"), message: `prepare: the candidate starts from environment/'s image; ${remedy}` }]
      : []),
  ];
}

/**
 * The eval as one case's slots see it: prompt.md rendered over the case. An eval without cases (`caseId` undefined)
 * is returned as it is.
 */
export function evalForCase(evaluation: EvalDefinition, caseId: string | undefined): EvalDefinition {
  const item = caseOf(evaluation, caseId);
  return item ? { ...evaluation, prompt: { ...evaluation.prompt, text: item.prompt } } : evaluation;
}

/** A Harbor task's definition files: read by the harness, not judge-only (tests/ and solution/ are). */
const HARBOR_ENTRIES = ["task.toml", "instruction.md"];

/** What a Harbor task folder cannot also hold, and what it must. */
function harborConflicts(has: (name: string) => boolean, at: (name: string) => string): LoadProblem[] {
  return [
    ...(has("prompt.md")
      ? [{ file: at("prompt.md"), message: "a Harbor task's prompt is instruction.md; remove prompt.md" }]
      : []),
    ...(has("eval.ts")
      ? [{ file: at("eval.ts"), message: "a Harbor task's settings are its task.toml's; remove eval.ts" }]
      : []),
    ...(has("tests/test.sh")
      ? []
      : [{ file: at("tests"), message: "a Harbor task is graded by tests/test.sh, which it does not have; add it" }]),
  ];
}

async function loadControls(directory: string): Promise<Record<string, ControlFile>> {
  if (!existsSync(directory)) return {};
  const names = (await readdir(directory)).filter((name) => name.endsWith(".json")).sort();
  const reserved = names.filter((name) =>
    (BUILT_IN_CONTROLS as readonly string[]).includes(name.slice(0, -".json".length)),
  );
  if (reserved.length > 0)
    throw new Error(
      `${reserved.join(", ")}: control/oracle and control/nop are built in (the task's solution/solve.sh, and doing nothing); give the control file another name`,
    );
  const controls: Record<string, ControlFile> = {};
  for (const name of names) controls[name.slice(0, -".json".length)] = await loadControlFile(join(directory, name));
  return controls;
}

/** The eval's folders a repository workspace copies into the candidate's (overlay, revisions): candidate inputs. */
export function workspaceFolders(settings: EvalSettings["workspace"]): string[] {
  return settings
    ? [
        ...(settings.overlay ? [settings.overlay] : []),
        ...(settings.revisions ?? []).map((revision) => revision.directory),
      ]
    : [];
}

/** The case files and per-case overlays: candidate inputs of each case (never judge-only files). */
export function caseInputs(settings: EvalSettings | null): string[] {
  return [...caseFilesOf(settings?.cases), CASE_OVERLAYS_FOLDER];
}

/**
 * `candidateFolders`: folders (or files) the candidate gets (see workspaceFolders), which are not judge-only either. A link to a
 * file elsewhere in the benchmark is frozen as that file's content.
 */
function listJudgeFiles(files: EvalFile[], candidateFolders: string[], harnessFiles: string[]): JudgeFile[] {
  const inFolder = (path: string) =>
    candidateFolders.some((folder) => path === folder || path.startsWith(`${folder}/`));
  const judgeOnly = files.filter((entry) => {
    const top = entry.path.split("/")[0] ?? "";
    return !HARNESS_ENTRIES.has(top) && !harnessFiles.includes(top) && !inFolder(entry.path);
  });
  return judgeOnly.map((entry) => ({ path: entry.path, sha256: sha256(readFileSync(entry.absolute)) }));
}

function duplicateIds(criteria: Criterion[]): string[] {
  const seen = new Set<string>();
  return criteria.filter((criterion) => seen.size === seen.add(criterion.id).size).map((criterion) => criterion.id);
}
