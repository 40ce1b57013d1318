// Which container engines this run may place work on: benchmark.ts `candidate.container.engines`, else the
// OPENEVAL_ENGINES variable (the same list as JSON), else the one engine of `candidate.container.host`, DOCKER_HOST
// or the local socket — a pool of one, bounded only by the run's concurrency.
import { describeZodIssues } from "../util/zod-issues.ts";
import { EnginesSchema } from "./engines-schema.ts";
import { EnginesSettingError } from "./errors.ts";
import type { BenchmarkSettings } from "./schema.ts";

export interface EngineMemberSettings {
  name: string;
  /** Absent: DOCKER_HOST, else the local socket. */
  host?: string;
  /** Sandboxes it runs at once; null: as many as the run's concurrency. */
  capacity: number | null;
  tls?: { certPath: string };
  insecure?: boolean;
}

export const ENGINES_VARIABLE = "OPENEVAL_ENGINES";

/** The name of the one engine when no pool is declared. */
export const DEFAULT_ENGINE_NAME = "default";

/**
 * @example
 * configuredEngines(settings.candidate, process.env) // [{ name: "default", capacity: null }]
 */
export function configuredEngines(
  candidate: BenchmarkSettings["candidate"],
  env: Record<string, string | undefined> = process.env,
): EngineMemberSettings[] {
  const declared = candidate.container?.engines;
  const variable = env[ENGINES_VARIABLE];
  if (variable !== undefined && variable.trim() !== "") {
    if (declared || candidate.container?.host)
      throw new EnginesSettingError(
        `${ENGINES_VARIABLE} is set, and benchmark.ts also names its engine${declared ? "s (candidate.container.engines)" : " (candidate.container.host)"}: unset one of them`,
      );
    return parseEnginesVariable(variable);
  }
  if (declared) return declared;
  const host = candidate.container?.host;
  return [{ name: DEFAULT_ENGINE_NAME, ...(host ? { host } : {}), capacity: null }];
}

function parseEnginesVariable(text: string): EngineMemberSettings[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EnginesSettingError(
      `${ENGINES_VARIABLE} is not JSON (${(error as Error).message}): give a list such as [{"name":"a","host":"unix:///var/run/docker.sock","capacity":4}]`,
    );
  }
  const parsed = EnginesSchema.safeParse(value);
  if (!parsed.success)
    throw new EnginesSettingError(
      `${ENGINES_VARIABLE} is not a valid engine list: ${describeZodIssues(parsed.error).join("; ")}`,
    );
  return parsed.data;
}
