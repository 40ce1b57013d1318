// Preflight once per model and invocation, before its first slot: an unreachable endpoint makes every slot of that
// model an infrastructure error at once (naming the URL and the provider), and the run goes on with the other models.
import type { BenchmarkDefinition } from "../load/index.ts";
import { checkEndpoint, preflightTarget } from "../opencode/index.ts";
import { isControlModel } from "../util/control-model.ts";

/** model → why its endpoint cannot be used, or null (reachable, or not checkable: a catalog provider, a control). */
export type Preflight = (model: string) => Promise<string | null>;

export function createPreflight(benchmark: BenchmarkDefinition): Preflight {
  const checks = new Map<string, Promise<string | null>>();
  return (model) => {
    let check = checks.get(model);
    if (!check) {
      const target = isControlModel(model) ? null : preflightTarget(model, benchmark.settings.candidate.providers);
      check = target ? checkEndpoint(target) : Promise.resolve(null);
      checks.set(model, check);
    }
    return check;
  };
}
