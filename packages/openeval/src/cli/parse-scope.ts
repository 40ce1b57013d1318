// The scope flags of run, plan and add-models (--model, --only-*, --fresh, --offline, --max-cost, --final-only,
// --isolation) as the planner's PlanScope, refusing values it cannot take.
import { isIsolation, ISOLATION_BACKENDS } from "../load/index.ts";
import type { PlanScope } from "../plan/index.ts";
import { listFlag } from "./command.ts";
import { UsageError } from "./errors.ts";

export function parseScope(flags: Record<string, unknown>): PlanScope {
  const list = (name: string) => listFlag(name, flags[name] as string[] | undefined);
  const repetitions = list("only-repetition")?.map((value) => {
    const repetition = Number(value);
    if (!Number.isInteger(repetition) || repetition < 1)
      throw new UsageError("valueInvalid", { flag: "only-repetition", takes: "whole numbers from 1", got: value });
    return repetition;
  });
  const isolation = flags.isolation as string | undefined;
  if (isolation !== undefined && !isIsolation(isolation))
    throw new UsageError("valueInvalid", { flag: "isolation", takes: ISOLATION_BACKENDS.join(" or "), got: isolation });
  const maxCost = flags["max-cost"] === undefined ? undefined : Number(flags["max-cost"]);
  if (maxCost !== undefined && !(Number.isFinite(maxCost) && maxCost >= 0))
    throw new UsageError("valueInvalid", {
      flag: "max-cost",
      takes: "an amount in USD, e.g. 2.5",
      got: String(flags["max-cost"]),
    });
  return {
    models: list("model"),
    onlyModels: list("only-model"),
    variants: list("variant"),
    onlyVariants: list("only-variant"),
    onlyEvals: list("only-eval"),
    onlyCases: list("only-case"),
    onlyCategories: list("only-category"),
    onlyRepetitions: repetitions,
    fresh: flags.fresh === true,
    offline: flags.offline === true,
    maxCostUSD: maxCost,
    finalOnly: flags["final-only"] === true,
    ...(isolation !== undefined ? { isolation } : {}),
  };
}
