// Writing and reading the invocation records of progress-schema.ts in the store's events table.
import * as z from "zod";
import {
  INVOCATION_FINISHED,
  INVOCATION_STARTED,
  InvocationFinishedSchema,
  InvocationStartedSchema,
  PlannedWorkSchema,
  type InvocationFinished,
  type InvocationStarted,
  type PlannedWork,
} from "./progress-schema.ts";
import { StoreError } from "./errors.ts";
import type { ResultsStore } from "./store.ts";

export interface Invocation {
  started: Omit<InvocationStarted, "work">;
  /** Null while it runs, or when its runner died before the end. */
  finished: InvocationFinished | null;
  /**
   * The work its plan scheduled: read for the latest invocation while it is unfinished, when asked for (the live
   * queue's); null otherwise. A plan of 100,000 slots is ~8 MB of JSON, which a finished run's reader need not parse.
   */
  work: PlannedWork[] | null;
}

export function recordInvocationStarted(store: ResultsStore, record: InvocationStarted): void {
  store.appendEvent(INVOCATION_STARTED, record);
}

export function recordInvocationFinished(store: ResultsStore, record: InvocationFinished): void {
  store.appendEvent(INVOCATION_FINISHED, record);
}

/**
 * Every invocation recorded in the run, oldest first; with `work`, the latest one's planned work when it is unfinished.
 * @example readInvocations(store).at(-1)?.finished === null // the latest one is still running (or died)
 */
export function readInvocations(store: ResultsStore, options: { work?: boolean } = {}): Invocation[] {
  const invocations: Invocation[] = [];
  let latestSequence = 0;
  for (const event of store.eventsOf([INVOCATION_STARTED, INVOCATION_FINISHED], "$.work")) {
    if (event.type === INVOCATION_STARTED) {
      invocations.push({ started: parse(InvocationHeadSchema, event.value), finished: null, work: null });
      latestSequence = event.sequence;
    }
    if (event.type === INVOCATION_FINISHED) {
      const finished = parse(InvocationFinishedSchema, event.value);
      const invocation = invocations.find((candidate) => candidate.started.invocation === finished.invocation);
      if (invocation) invocation.finished = finished;
    }
  }
  const latest = invocations.at(-1);
  if (options.work && latest && latest.finished === null)
    latest.work = parse(z.array(PlannedWorkSchema), store.eventPart(latestSequence, "$.work"));
  return invocations;
}

const InvocationHeadSchema = InvocationStartedSchema.omit({ work: true });

function parse<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: Error } },
  value: unknown,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new StoreError("recordInvalid", { what: "An invocation record", problem: parsed.error.message });
  return parsed.data;
}
