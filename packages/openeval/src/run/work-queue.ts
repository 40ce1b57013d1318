// One queue of candidate, judge and earlyStop check work under a concurrency limit. Checks go first (a running
// candidate waits on them), then judges, so that grading keeps up with recording; work added while running joins
// the same queue. While a monitored (earlyStop) candidate runs, candidates leave one lane free for checks.

export interface WorkItem {
  kind: "candidate" | "judge" | "check";
  /** A candidate watched by earlyStop checks. */
  monitored?: boolean;
}

export interface WorkQueueState {
  running: number;
  queued: number;
  done: number;
}

const PRIORITY: readonly WorkItem["kind"][] = ["check", "judge", "candidate"];

export async function runWorkQueue<Item extends WorkItem>(
  initial: readonly Item[],
  concurrency: number,
  handle: (item: Item, enqueue: (next: Item) => void) => Promise<void>,
  options: { signal?: AbortSignal; onChange?: (state: WorkQueueState) => void } = {},
): Promise<void> {
  const queue = [...initial];
  const active = new Set<Item>();
  let done = 0;
  const report = () => options.onChange?.({ running: active.size, queued: queue.length, done });
  const startable = (item: Item): boolean => {
    if (item.kind !== "candidate") return true;
    const candidates = [...active].filter((running) => running.kind === "candidate");
    const monitoring = item.monitored || candidates.some((running) => running.monitored);
    const reserve = monitoring && concurrency >= 2 ? 1 : 0;
    return candidates.length + 1 <= concurrency - reserve;
  };
  const takeNext = (): Item | undefined => {
    for (const kind of PRIORITY) {
      const index = queue.findIndex((item) => item.kind === kind && startable(item));
      if (index >= 0) return queue.splice(index, 1)[0];
    }
    return undefined;
  };

  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (options.signal?.aborted) queue.length = 0;
      while (active.size < concurrency) {
        const item = takeNext();
        if (item === undefined) break;
        active.add(item);
        report();
        handle(item, (next) => {
          queue.push(next);
          report();
          pump();
        })
          .then(() => {
            active.delete(item);
            done++;
            report();
            pump();
          })
          .catch(reject);
      }
      if (active.size === 0 && queue.length === 0) resolve();
    };
    options.signal?.addEventListener("abort", pump, { once: true });
    pump();
  });
}
