// The environment images of a run's evals (candidate/environment-image.ts): found by their content hash before
// anything is planned, and built when a run needs them, each build's log kept beside the run. A build that fails is
// that eval's setup error, told to each of its candidates; the other evals run.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import {
  buildEnvironmentImage,
  findEnvironmentImage,
  type EnvironmentImage,
  type RuntimeEnvironment,
} from "../candidate/index.ts";
import type { EvalDefinition, LoadProblem } from "../load/index.ts";
import {
  connectImageEngine,
  ContainerError,
  type ContainerEngine,
  type EngineOptions,
  type ImageProgress,
} from "../sandbox/index.ts";

/** Where a run keeps its environment builds' logs, one `<eval id>.log` each. */
export const ENVIRONMENT_BUILDS_DIRECTORY = "environment-builds";

export interface RunEnvironments {
  /** The built image of an eval's environment; null when it has none, or none built. */
  imageOf(evalId: string): EnvironmentImage | null;
  /** What an eval with environment/ runs in: its image and facts; null when it has none, or none built. */
  pinnedFor(evalId: string): { image: string; environment: RuntimeEnvironment } | null;
  /** Why the eval's environment cannot be used (its build failed): its candidates' setup error. */
  problemFor(evalId: string): string | null;
  /** Evals with environment/ whose image is not built yet. */
  unbuilt: string[];
  /** Each built environment's image id, recorded with the run. */
  images: Record<string, string>;
}

interface Resolved {
  image: EnvironmentImage | null;
  problem: string | null;
}

/** The environments already built; nothing is built. No eval with environment/: no engine is asked. */
export async function findRunEnvironments(
  evaluations: readonly EvalDefinition[],
  engineOptions: EngineOptions = {},
): Promise<RunEnvironments> {
  const withEnvironment = evaluations.filter((evaluation) => evaluation.environment);
  if (withEnvironment.length === 0) return environmentsOf(evaluations, new Map());
  const engine = await connect(engineOptions);
  const resolved = new Map<string, Resolved>();
  for (const evaluation of withEnvironment)
    resolved.set(evaluation.id, { image: await findEnvironmentImage(engine, evaluation.environment!), problem: null });
  return environmentsOf(evaluations, resolved);
}

/**
 * Builds the environments not built yet (of the evals in `only`, when given; the others keep what `found` found), each
 * build's output in `<logDirectory>/<eval id>.log`; a failure is kept as that eval's problem, never thrown.
 */
export async function buildRunEnvironments(
  evaluations: readonly EvalDefinition[],
  found: RunEnvironments,
  options: {
    /** The engine environments are built on (the pool's home engine); others get them carried. */
    engine?: EngineOptions;
    logDirectory: string;
    /** Build again even what is built (the engine's layer cache still applies). */
    force?: boolean;
    only?: ReadonlySet<string>;
    onProgress?: (evalId: string, event: ImageProgress) => void;
  },
): Promise<RunEnvironments> {
  if (found.unbuilt.length === 0 && !options.force) return found;
  const engine = await connect(options.engine ?? {});
  const resolved = new Map<string, Resolved>();
  for (const evaluation of evaluations.filter((evaluation) => evaluation.environment)) {
    const image = found.imageOf(evaluation.id);
    const build = !options.only || options.only.has(evaluation.id);
    resolved.set(
      evaluation.id,
      build && (options.force || !image) ? await buildLogged(engine, evaluation, options) : { image, problem: null },
    );
  }
  return environmentsOf(evaluations, resolved);
}

async function buildLogged(
  engine: ContainerEngine,
  evaluation: EvalDefinition,
  options: { logDirectory: string; force?: boolean; onProgress?: (evalId: string, event: ImageProgress) => void },
): Promise<Resolved> {
  await mkdir(options.logDirectory, { recursive: true });
  const logFile = join(options.logDirectory, `${evaluation.id}.log`);
  const log = Bun.file(logFile).writer();
  try {
    const image = await buildEnvironmentImage(engine, evaluation.environment!, {
      ...(options.force ? { force: true } : {}),
      onProgress: (event) => {
        log.write(`${event.kind === "phase" ? "» " : "  "}${event.message}\n`);
        options.onProgress?.(evaluation.id, event);
      },
    });
    return { image, problem: null };
  } catch (error) {
    if (!(error instanceof ContainerError)) throw error;
    log.write(`${error.message}\n`);
    return {
      image: null,
      problem: `The environment of eval "${evaluation.id}" did not build, so its candidates did not start: ${error.message.split("\n")[0]} The whole build log: ${logFile}`,
    };
  } finally {
    await log.end();
  }
}

function environmentsOf(evaluations: readonly EvalDefinition[], resolved: Map<string, Resolved>): RunEnvironments {
  const limitsOf = new Map(evaluations.map((evaluation) => [evaluation.id, evaluation.environment?.limits ?? {}]));
  const images = Object.fromEntries(
    [...resolved].flatMap(([evalId, { image }]) => (image ? [[evalId, image.imageId]] : [])),
  );
  return {
    imageOf: (evalId) => resolved.get(evalId)?.image ?? null,
    pinnedFor: (evalId) => {
      const image = resolved.get(evalId)?.image;
      if (!image) return null;
      return {
        image: image.imageId,
        environment: { workdir: image.workdir, asRoot: image.asRoot, limits: limitsOf.get(evalId) ?? {} },
      };
    },
    problemFor: (evalId) => resolved.get(evalId)?.problem ?? null,
    unbuilt: [...resolved].filter(([, entry]) => !entry.image && !entry.problem).map(([evalId]) => evalId),
    images,
  };
}

function connect(engineOptions: EngineOptions): Promise<ContainerEngine> {
  return connectImageEngine("environment", engineOptions);
}

/**
 * Harbor tasks' prebuilt images (task.toml docker_image) missing from the engine, as validation problems: a task
 * whose image is not there cannot run. No such task: no engine is asked.
 */
export async function prebuiltImageProblems(
  evaluations: readonly EvalDefinition[],
  engineOptions: EngineOptions = {},
): Promise<LoadProblem[]> {
  const named = evaluations.filter((evaluation) => evaluation.environment?.baseImage);
  if (named.length === 0) return [];
  let engine: ContainerEngine;
  try {
    engine = await connect(engineOptions);
  } catch (error) {
    return named.map((evaluation) => ({
      file: `evals/${evaluation.id}/task.toml`,
      message: `environment.docker_image ${evaluation.environment!.baseImage} cannot be checked: ${(error as Error).message}`,
    }));
  }
  const problems: LoadProblem[] = [];
  for (const evaluation of named) {
    const image = evaluation.environment!.baseImage!;
    if (!(await engine.inspectImage(image)))
      problems.push({
        file: `evals/${evaluation.id}/task.toml`,
        message: `environment.docker_image ${image} is not on the engine at ${engine.address}; pull or build it there (openeval fetches nothing), or give the task an environment/ folder`,
      });
  }
  return problems;
}
