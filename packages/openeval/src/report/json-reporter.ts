// `--json`: every runner event as one JSON object a line, for scripts. Plans are abbreviated to the slot keys
// and actions; recordings are referenced, not inlined.
import type { RunnerEvent } from "../summary/index.ts";

export function createJsonReporter(write: (line: string) => void): (event: RunnerEvent) => void {
  return (event) => {
    if (event.type === "run.started") {
      const slots = event.slots.map(({ evalId, model, variant, repetition, action, reason }) => ({
        evalId,
        model,
        variant,
        repetition,
        action,
        reason,
      }));
      write(JSON.stringify({ ...event, slots }));
      return;
    }
    write(JSON.stringify(event));
  };
}
