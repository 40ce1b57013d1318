// One queue of candidate and judge work under a concurrency limit. Judge work goes first so that grading keeps
// up with recording; work added while running (a judge after its candidate) joins the same queue.

export interface WorkItem {
  kind: "candidate" | "judge";
}

export interface WorkQueueState {
  running: number;
  queued: number;
  done: number;
}

export async function runWorkQueue<Item extends WorkItem>(
  initial: readonly Item[],
  concurrency: number,
  handle: (item: Item, enqueue: (next: Item) => void) => Promise<void>,
  options: { signal?: AbortSignal; onChange?: (state: WorkQueueState) => void } = {},
): Promise<void> {
  const queue = [...initial];
  let running = 0;
  let done = 0;
  const report = () => options.onChange?.({ running, queued: queue.length, done });
  const takeNext = (): Item | undefined => {
    const judge = queue.findIndex((item) => item.kind === "judge");
    return judge >= 0 ? queue.splice(judge, 1)[0] : queue.shift();
  };

  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (options.signal?.aborted) queue.length = 0;
      while (running < concurrency && queue.length > 0) {
        const item = takeNext()!;
        running++;
        report();
        handle(item, (next) => {
          queue.push(next);
          report();
        })
          .then(() => {
            running--;
            done++;
            report();
            pump();
          })
          .catch(reject);
      }
      if (running === 0 && queue.length === 0) resolve();
    };
    options.signal?.addEventListener("abort", pump, { once: true });
    pump();
  });
}
