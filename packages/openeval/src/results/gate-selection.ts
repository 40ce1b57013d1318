// Which verdict contributors are enabled: default (all) ◁ benchmark.ts ◁ CLI, resolved in one place and
// validated against the contributor vocabulary so that a typo is an error, never a silently smaller gate.
import { GateSelectionError } from "./errors.ts";

/** The contributor vocabulary, in display order. */
export const CONTRIBUTOR_IDS = ["code-judge", "llm-judge", "gates", "regression", "integrity", "invariants"] as const;
export type ContributorId = (typeof CONTRIBUTOR_IDS)[number];

export interface GateSelection {
  /** benchmark.ts: contributor id → enabled; an omitted id stays enabled. */
  configured?: Readonly<Record<string, boolean>>;
  /** `--gate <ids>`: sets the enabled set outright (ids comma-separated and/or repeated). */
  gate?: readonly string[];
  /** `--only <ids>`: keeps only these ids of the set resolved so far. */
  only?: readonly string[];
  /** `--no-llm-judge`: removes llm-judge, whatever came before. */
  noLlmJudge?: boolean;
  /** `--no-integrity`: removes integrity, whatever came before. */
  noIntegrity?: boolean;
  /** `--no-invariants`: removes invariants, whatever came before. */
  noInvariants?: boolean;
}

/**
 * Resolves the enabled contributor set, in display order. Steps: all ids; drop those benchmark.ts sets to false;
 * `--gate` replaces the set; `--only` intersects it; `--no-llm-judge`, `--no-integrity` and `--no-invariants` remove theirs. Unknown ids anywhere
 * throw GateSelectionError listing the valid ones.
 * @example resolveGate({ configured: { regression: false }, only: ["gates,regression"] }) // ["gates"]
 */
export function resolveGate(selection: GateSelection = {}): ContributorId[] {
  const gate = selection.gate === undefined ? undefined : splitIds(selection.gate);
  const only = selection.only === undefined ? undefined : splitIds(selection.only);
  const configured = Object.entries(selection.configured ?? {});
  const unknown = [...new Set([...configured.map(([id]) => id), ...(gate ?? []), ...(only ?? [])])].filter(
    (id) => !isContributorId(id),
  );
  if (unknown.length > 0) throw new GateSelectionError(unknown, CONTRIBUTOR_IDS);

  let enabled = new Set<string>(CONTRIBUTOR_IDS.filter((id) => selection.configured?.[id] !== false));
  if (gate) enabled = new Set(gate);
  if (only) enabled = new Set([...enabled].filter((id) => only.includes(id)));
  if (selection.noLlmJudge) enabled.delete("llm-judge");
  if (selection.noIntegrity) enabled.delete("integrity");
  if (selection.noInvariants) enabled.delete("invariants");
  return CONTRIBUTOR_IDS.filter((id) => enabled.has(id));
}

export function isContributorId(id: string): id is ContributorId {
  return (CONTRIBUTOR_IDS as readonly string[]).includes(id);
}

function splitIds(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(","))
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
}
