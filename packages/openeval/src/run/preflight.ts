// The endpoint check of each model's provider, before its first slot: a provider that is down makes every slot of
// its models an infrastructure error at once, a wrong path a setup error, both naming the URL, and the run goes on
// with the other providers. A slot whose provider failed checks again, so the slots after a server died fail fast.
import type { BenchmarkDefinition } from "../load/index.ts";
import { checkEndpoint, parseModelRef, preflightTarget, type EndpointProblem } from "../opencode/index.ts";
import type { EndpointCheck } from "../candidate/index.ts";
import { isControlModel } from "../util/control-model.ts";

export interface Preflight {
  /** What is wrong with the model's endpoint (null: fine, or not checkable: a catalog provider, a control). */
  check(model: string): Promise<EndpointProblem | null>;
  /** Checks again now, after a slot of the model's provider failed; later slots of the provider see this answer. */
  recheck(model: string): Promise<EndpointCheck>;
}

export function createPreflight(benchmark: BenchmarkDefinition): Preflight {
  // Per provider: its models share one endpoint.
  const checks = new Map<string, Promise<EndpointProblem | null>>();
  const targetOf = (model: string) =>
    isControlModel(model) ? null : preflightTarget(model, benchmark.settings.candidate.providers);
  const run = (model: string) => {
    const target = targetOf(model);
    const check = target ? checkEndpoint(target) : Promise.resolve(null);
    checks.set(parseModelRef(model).provider, check);
    return check;
  };
  return {
    check: (model) => checks.get(parseModelRef(model).provider) ?? run(model),
    recheck: async (model) => (targetOf(model) ? ((await run(model)) ?? "answers") : "unchecked"),
  };
}
