// A Harbor task folder read in place as an eval (docs/guide/harbor-tasks.md): instruction.md is the prompt,
// environment/ (or task.toml's docker_image) the environment, tests/ the verifier and solution/ the oracle's
// reference, both judge-only; task.toml's settings map onto openeval's, and what cannot be honoured is refused.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeZodIssues } from "../util/zod-issues.ts";
import { categoryKey } from "./categories.ts";
import { loadEnvironment, type EnvironmentLimits, type EvalEnvironment } from "./environment.ts";
import { HarborTaskTomlSchema, type HarborTaskToml } from "./harbor-schema.ts";
import { ConfigInvalidError } from "./import-config.ts";
import { parsePrompt, type EvalPrompt } from "./prompt.ts";
import { EvalSettingsSchema, type EvalSettings } from "./schema.ts";

/** The criterion a verifier's reward.txt scores. */
export const HARBOR_REWARD = "reward";

/** Harbor's defaults, which a task written for Harbor expects when it leaves a timeout out. */
const HARBOR_DEFAULT_TIMEOUT_SEC = 600;

export interface HarborTask {
  verifier: { timeoutMs: number; env: Record<string, string> };
  /** `[solution] env`: the oracle runs solution/solve.sh with it. */
  solutionEnv: Record<string, string>;
  /** metadata.category, as the category of every criterion its verifier scores. */
  categories: string[];
  /** What each task.toml key became, as `openeval validate` lists it. */
  mapped: string[];
}

export interface LoadedHarborTask {
  prompt: EvalPrompt;
  settings: EvalSettings;
  environment: EvalEnvironment;
  harbor: HarborTask;
}

/** The files that make a folder a Harbor task. */
export function isHarborTask(directory: string): boolean {
  return existsSync(join(directory, "task.toml")) && existsSync(join(directory, "instruction.md"));
}

/** task.toml, validated. @throws ConfigInvalidError naming each key at fault (the caller files it under task.toml). */
export function readTaskToml(directory: string): HarborTaskToml {
  let parsed: unknown;
  try {
    parsed = Bun.TOML.parse(readFileSync(join(directory, "task.toml"), "utf8"));
  } catch (error) {
    throw new ConfigInvalidError([`is not valid TOML: ${(error as Error).message}`]);
  }
  const toml = HarborTaskTomlSchema.safeParse(parsed);
  if (!toml.success) throw new ConfigInvalidError(describeZodIssues(toml.error));
  return toml.data;
}

/** The eval's prompt, settings and verifier from a task folder whose task.toml and environment are valid. */
export function mapHarborTask(directory: string, toml: HarborTaskToml, environment: EvalEnvironment): LoadedHarborTask {
  const agentSec = toml.agent?.timeout_sec ?? HARBOR_DEFAULT_TIMEOUT_SEC;
  const verifierSec = toml.verifier?.timeout_sec ?? HARBOR_DEFAULT_TIMEOUT_SEC;
  const metadata = toml.metadata ?? {};
  const category = typeof metadata.category === "string" ? categoryKey(metadata.category) : "";
  const tags = [
    ...stringsOf(metadata.tags),
    ...(toml.task?.keywords ?? []),
    ...(typeof metadata.difficulty === "string" ? [`difficulty:${metadata.difficulty}`] : []),
  ];
  const prompt = parsePrompt(readFileSync(join(directory, "instruction.md")));
  return {
    prompt: {
      ...prompt,
      ...(toml.task?.name ? { title: toml.task.name } : {}),
      tags: [...(prompt.tags ?? []), ...tags],
    },
    settings: EvalSettingsSchema.parse({ timeoutMs: Math.round(agentSec * 1000) }),
    environment,
    harbor: {
      verifier: { timeoutMs: Math.round(verifierSec * 1000), env: toml.verifier?.env ?? {} },
      solutionEnv: toml.solution?.env ?? {},
      categories: category ? [category] : [],
      mapped: describeMapping(directory, toml, { agentSec, verifierSec, environment, tags, category }),
    },
  };
}

/** environment/ with task.toml's build timeout and limits, or its prebuilt docker_image. */
export function harborEnvironment(directory: string, toml: HarborTaskToml): EvalEnvironment {
  const agentUser = toml.agent?.user !== undefined ? { agentUser: toml.agent.user } : {};
  const settings = toml.environment ?? {};
  const limits: EnvironmentLimits = {
    ...(settings.cpus !== undefined ? { cpus: settings.cpus } : {}),
    ...(settings.memory_mb !== undefined || settings.memory !== undefined
      ? { memoryMiB: settings.memory_mb ?? settings.memory }
      : {}),
    ...(settings.storage_mb !== undefined || settings.storage !== undefined
      ? { storageMiB: settings.storage_mb ?? settings.storage }
      : {}),
  };
  const buildTimeoutMs = Math.round((settings.build_timeout_sec ?? HARBOR_DEFAULT_TIMEOUT_SEC) * 1000);
  const folder = join(directory, "environment");
  // With both, environment/ is built: docker_image is the same image prebuilt for a registry openeval never pulls from.
  if (settings.docker_image !== undefined && !existsSync(folder))
    return { directory: null, baseImage: settings.docker_image, buildTimeoutMs, limits, ...agentUser };
  if (!existsSync(folder))
    throw new ConfigInvalidError([
      "the task has no environment/ folder and no environment.docker_image; add environment/Dockerfile",
    ]);
  return { ...loadEnvironment(folder, { buildTimeoutMs, limits }), ...agentUser };
}

function describeMapping(
  directory: string,
  toml: HarborTaskToml,
  mapped: { agentSec: number; verifierSec: number; environment: EvalEnvironment; tags: string[]; category: string },
): string[] {
  const { environment } = mapped;
  const defaulted = (value: number | undefined) => (value === undefined ? " (Harbor's default)" : "");
  const limits = [
    environment.limits.cpus !== undefined ? `cpus ${environment.limits.cpus}` : null,
    environment.limits.memoryMiB !== undefined ? `memory ${environment.limits.memoryMiB} MiB` : null,
  ].filter(Boolean);
  return [
    "Harbor task",
    `agent timeout ${mapped.agentSec} s${defaulted(toml.agent?.timeout_sec)}`,
    ...(environment.agentUser ? [`agent's commands as user ${environment.agentUser}`] : []),
    ...(toml.agent?.setup_timeout_sec !== undefined
      ? ["agent setup: none needed (OpenCode is in the image; nothing is installed at run time)"]
      : []),
    `verifier tests/test.sh, timeout ${mapped.verifierSec} s${defaulted(toml.verifier?.timeout_sec)}${Object.keys(toml.verifier?.env ?? {}).length > 0 ? `, env ${Object.keys(toml.verifier!.env!).join(", ")}` : ""}`,
    `environment ${environment.directory ? "environment/" : `image ${environment.baseImage}`} (build timeout ${environment.buildTimeoutMs / 1000} s${limits.length > 0 ? `; ${limits.join(", ")}` : ""})`,
    ...(environment.directory && toml.environment?.docker_image !== undefined
      ? [
          `docker_image ${toml.environment.docker_image}: not used; environment/ is built instead (openeval pulls no image)`,
        ]
      : []),
    ...(environment.limits.storageMiB !== undefined
      ? [
          `storage ${environment.limits.storageMiB} MiB: not enforced (a container engine caps storage only on some storage drivers, such as overlay2 on xfs with pquota)`,
        ]
      : []),
    `network: none but the model's provider${toml.environment?.allow_internet === undefined ? " (allow_internet unset; Harbor's default would be open internet)" : ""}`,
    ...(existsSync(join(directory, "solution", "solve.sh"))
      ? [
          `solution/solve.sh: control/oracle${Object.keys(toml.solution?.env ?? {}).length > 0 ? `, env ${Object.keys(toml.solution!.env!).join(", ")}` : ""}`,
        ]
      : []),
    ...(mapped.tags.length > 0 ? [`tags ${mapped.tags.join(", ")}`] : []),
    ...(mapped.category ? [`category ${mapped.category}`] : []),
  ];
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
