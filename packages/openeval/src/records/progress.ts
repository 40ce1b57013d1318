// Writing and reading the invocation records of progress-schema.ts in the store's events table.
import { INVOCATION_FINISHED, INVOCATION_STARTED, InvocationFinishedSchema, InvocationStartedSchema, type InvocationFinished, type InvocationStarted } from "./progress-schema.ts";
import { StoreError, type ResultsStore } from "./store.ts";

export interface Invocation {
  started: InvocationStarted;
  /** Null while it runs, or when its runner died before the end. */
  finished: InvocationFinished | null;
}

export function recordInvocationStarted(store: ResultsStore, record: InvocationStarted): void {
  store.appendEvent(INVOCATION_STARTED, record);
}

export function recordInvocationFinished(store: ResultsStore, record: InvocationFinished): void {
  store.appendEvent(INVOCATION_FINISHED, record);
}

/**
 * Every invocation recorded in the run, oldest first.
 * @example readInvocations(store).at(-1)?.finished === null // the latest one is still running (or died)
 */
export function readInvocations(store: ResultsStore): Invocation[] {
  const invocations: Invocation[] = [];
  for (const event of store.events()) {
    if (event.type === INVOCATION_STARTED) invocations.push({ started: parse(InvocationStartedSchema, event.value), finished: null });
    if (event.type === INVOCATION_FINISHED) {
      const finished = parse(InvocationFinishedSchema, event.value);
      const invocation = invocations.find((candidate) => candidate.started.invocation === finished.invocation);
      if (invocation) invocation.finished = finished;
    }
  }
  return invocations;
}

function parse<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: Error } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new StoreError(`An invocation record in the results store does not match this openeval's format: ${parsed.error.message}`);
  return parsed.data;
}
