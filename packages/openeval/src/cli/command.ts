// The shape of one CLI command, and flag parsing shared by all of them (node:util parseArgs, strict).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isIsolation, ISOLATION_BACKENDS } from "../load/index.ts";
import type { PlanScope } from "../plan/index.ts";
import { UsageError } from "./errors.ts";

export type Options = NonNullable<ParseArgsConfig["options"]>;

export interface Command<O extends Options = Options> {
  name: string;
  summary: string;
  usage: string;
  options: O;
  /** Returns the process exit code. */
  run(flags: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>["values"], positionals: string[]): Promise<number>;
}

export const BENCHMARK_OPTION = { benchmark: { type: "string", default: "." } } as const satisfies Options;

/** Scoping flags shared by run and plan (SPEC §11). */
export const SCOPE_OPTIONS = {
  model: { type: "string", multiple: true },
  "only-model": { type: "string", multiple: true },
  variant: { type: "string", multiple: true },
  "only-variant": { type: "string", multiple: true },
  "only-eval": { type: "string", multiple: true },
  "only-category": { type: "string", multiple: true },
  "only-repetition": { type: "string", multiple: true },
  fresh: { type: "boolean", default: false },
  offline: { type: "boolean", default: false },
  "max-cost": { type: "string" },
  "final-only": { type: "boolean", default: false },
  isolation: { type: "string" },
} as const satisfies Options;

export function parseScope(flags: Record<string, unknown>): PlanScope {
  const list = (name: string) => (flags[name] as string[] | undefined)?.flatMap((value) => value.split(",")).filter(Boolean);
  const repetitions = list("only-repetition")?.map((value) => {
    const repetition = Number(value);
    if (!Number.isInteger(repetition) || repetition < 1) throw new UsageError(`--only-repetition takes whole numbers from 1; got "${value}"`);
    return repetition;
  });
  const isolation = flags.isolation as string | undefined;
  if (isolation !== undefined && !isIsolation(isolation)) throw new UsageError(`--isolation takes ${ISOLATION_BACKENDS.join(" or ")}; got "${isolation}"`);
  const maxCost = flags["max-cost"] === undefined ? undefined : Number(flags["max-cost"]);
  if (maxCost !== undefined && !(Number.isFinite(maxCost) && maxCost >= 0)) throw new UsageError(`--max-cost takes an amount in USD, e.g. 2.5; got "${String(flags["max-cost"])}"`);
  return {
    models: list("model"),
    onlyModels: list("only-model"),
    variants: list("variant"),
    onlyVariants: list("only-variant"),
    onlyEvals: list("only-eval"),
    onlyCategories: list("only-category"),
    onlyRepetitions: repetitions,
    fresh: flags.fresh === true,
    offline: flags.offline === true,
    maxCostUSD: maxCost,
    finalOnly: flags["final-only"] === true,
    ...(isolation !== undefined ? { isolation } : {}),
  };
}

export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

export function parseFlags<O extends Options>(command: Command<O>, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${formatHelp(command)}`);
  }
}

export function formatHelp(command: Command): string {
  const flags = Object.entries(command.options).map(([name, option]) => {
    const value = option.type === "string" ? " <value>" : "";
    const fallback = "default" in option && option.default !== undefined ? ` (default: ${String(option.default)})` : "";
    return `  --${name}${value}${fallback}`;
  });
  return [`openeval ${command.usage}`, "", command.summary, "", "Options:", ...flags, "  --help, -h"].join("\n");
}
