// The `invariants` verdict contributor: benchmark.ts's run-level invariants, as their recorded evaluations say. It
// fails when one is violated or unevaluable, or when the manifest cannot be loaded, naming the invariants; it stays
// undecided while one is not evaluated; it is skipped when none is declared. It only reads: nothing is run here.
import type { InvariantStatus } from "../records/index.ts";
import type { ContributorOutcome } from "./verdict.ts";

/** One declared invariant's standing: its latest evaluation for its current declaration, or `not-evaluated`. */
export interface InvariantStanding {
  id: string;
  status: InvariantStatus;
  exitCode: number | null;
  /** Why it is unevaluable or not evaluated. */
  reason: string | null;
}

export interface InvariantsVerdictInput {
  /** One per declared invariant, in manifest order. */
  standings: readonly InvariantStanding[];
  /** Why the manifest could not be loaded; null when it was. */
  manifestProblem: string | null;
}

/** The contributor's outcome; without input (no manifest at all), skipped as having no invariants declared. */
export function invariantsContributor(input: InvariantsVerdictInput | undefined): ContributorOutcome {
  const base = { id: "invariants" as const, unresolved: [], advisory: [] };
  if (input?.manifestProblem)
    return {
      ...base,
      status: "fail",
      word: "fail",
      failing: ["manifest"],
      checked: 0,
      detail: `the invariants manifest could not be loaded: ${input.manifestProblem}`,
    };
  const standings = input?.standings ?? [];
  if (standings.length === 0)
    return { ...base, status: "skipped", word: "skipped", failing: [], checked: 0, detail: "no invariants declared" };
  const of = (status: InvariantStatus) => standings.filter((standing) => standing.status === status);
  const failing = standings.filter((standing) => standing.status === "violated" || standing.status === "unevaluable");
  const unresolved = of("not-evaluated");
  const notes = [
    `${of("holds").length} of ${standings.length} invariant(s) hold`,
    ...failing.map((standing) => `${standing.id} ${describeStanding(standing)}`),
    ...unresolved.map((standing) => `${standing.id} ${describeStanding(standing)}`),
  ];
  const status = failing.length > 0 ? "fail" : unresolved.length > 0 ? "unknown" : "pass";
  return {
    ...base,
    status,
    word: status,
    failing: failing.map((standing) => standing.id),
    unresolved: unresolved.map((standing) => standing.id),
    checked: standings.length,
    detail: notes.join("; "),
  };
}

/**
 * How every report words one invariant's standing.
 * @example describeStanding({ id: "a", status: "violated", exitCode: 1, reason: null }) // "violated (exit code 1)"
 */
export function describeStanding(standing: Omit<InvariantStanding, "id">): string {
  if (standing.status === "holds") return "holds";
  if (standing.status === "violated") return `violated (exit code ${standing.exitCode})`;
  return `${standing.status === "unevaluable" ? "unevaluable" : "not evaluated"}${standing.reason ? `: ${standing.reason}` : ""}`;
}
