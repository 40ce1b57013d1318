// Which isolation backend a model's candidates run in: the `--isolation` flag, else benchmark.ts
// `candidate.isolation`, else `container` for real models and `process` for controls (so a machine with only
// Node.js runs the offline example benchmark).
import { isControlModel } from "../util/control-model.ts";
import { ISOLATION_BACKENDS, type BenchmarkSettings } from "./schema.ts";

export type Isolation = (typeof ISOLATION_BACKENDS)[number];

export function resolveIsolation(model: string, settings: BenchmarkSettings, override?: Isolation): Isolation {
  return override ?? settings.candidate.isolation ?? (isControlModel(model) ? "process" : "container");
}

/** An eval with its own environment runs in a container whatever the model: its environment is an image. */
export function resolveEvalIsolation(
  model: string,
  evaluation: { environment: unknown },
  settings: BenchmarkSettings,
  override?: Isolation,
): Isolation {
  return evaluation.environment ? "container" : resolveIsolation(model, settings, override);
}

export function isIsolation(value: string): value is Isolation {
  return (ISOLATION_BACKENDS as readonly string[]).includes(value);
}

export { ISOLATION_BACKENDS };
