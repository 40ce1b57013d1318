// What the viewer could not find, in words: the server's 404 answers and a static export's missing data say it the
// same way, naming the run, eval run or judge run and the part of it — never an /api/ path or a data file's key.
// Pure (no Node modules): the front end words a static export's misses with it.

/** The thing not found: a part (a file, a session, the queue, …) of a run, an eval run or a judge run. */
export interface Missing {
  run?: string;
  evalRun?: string;
  judgeRun?: string;
  /** What of it, as a noun phrase ("the file src/a.ts of the final workspace"); absent: the run or run itself. */
  part?: string;
}

/**
 * @example describeMissing({ run: "r1", evalRun: "eval_1", part: "the log logs/opencode.log" })
 * // "the log logs/opencode.log of eval run eval_1 (run r1)"
 */
export function describeMissing(missing: Missing): string {
  const owner = missing.evalRun
    ? `eval run ${missing.evalRun}`
    : missing.judgeRun
      ? `judge run ${missing.judgeRun}`
      : missing.run
        ? `run ${missing.run}`
        : null;
  const within =
    owner && (missing.evalRun || missing.judgeRun) && missing.run ? `${owner} (run ${missing.run})` : owner;
  if (!missing.part) return within ?? "nothing named";
  return within ? `${missing.part} of ${within}` : missing.part;
}

/** A comparison's two sides in words, for a missing one. */
export function describeComparison(request: { a: string; b: string; modelA?: string; modelB?: string }): string {
  const side = (id: string) => (id === "baseline" ? "baseline.json" : `run ${id}`);
  const models =
    request.modelA || request.modelB
      ? ` (${request.modelA ?? "every model"} → ${request.modelB ?? "every model"})`
      : "";
  return `the comparison of ${side(request.a)} with ${side(request.b)}${models}`;
}
