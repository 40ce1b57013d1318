// One queue of candidate, judge and earlyStop check work under a concurrency limit. Checks go first (a running
// candidate waits on them), then judges, so that grading keeps up with recording; work added while running joins
// the same queue. While a monitored (earlyStop) candidate runs, candidates leave one lane free for checks.
import type { WorkQueueState } from "../summary/index.ts";

export type { WorkQueueState };

export interface WorkItem {
  kind: "candidate" | "judge" | "check";
  /** A candidate watched by earlyStop checks. */
  monitored?: boolean;
}

export async function runWorkQueue<Item extends WorkItem>(
  initial: readonly Item[],
  concurrency: number,
  handle: (item: Item, enqueue: (next: Item) => void) => Promise<void>,
  options: { signal?: AbortSignal; onChange?: (state: WorkQueueState) => void } = {},
): Promise<void> {
  const queue = new KindQueues<Item>();
  for (const item of initial) queue.push(item);
  /** Running items and when each started. */
  const active = new Map<Item, number>();
  const running = { candidates: 0, monitored: 0 };
  let done = 0;
  let doneMs = 0;
  const report = () =>
    options.onChange?.({ running: active.size, queued: queue.size, done, runningSince: [...active.values()], doneMs });
  // Candidates keep one lane free for checks while a monitored one runs, or when this one is monitored.
  const mayStart = (candidate: Item): boolean => {
    const monitoring = candidate.monitored || running.monitored > 0;
    const reserve = monitoring && concurrency >= 2 ? 1 : 0;
    return running.candidates + 1 <= concurrency - reserve;
  };
  const countRunning = (item: Item, by: 1 | -1) => {
    if (item.kind !== "candidate") return;
    running.candidates += by;
    if (item.monitored) running.monitored += by;
  };

  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (options.signal?.aborted) queue.clear();
      while (active.size < concurrency) {
        const item = queue.take(mayStart);
        if (item === undefined) break;
        active.set(item, Date.now());
        countRunning(item, 1);
        report();
        handle(item, (next) => {
          queue.push(next);
          report();
          pump();
        })
          .then(() => {
            doneMs += Date.now() - active.get(item)!;
            active.delete(item);
            countRunning(item, -1);
            done++;
            report();
            pump();
          })
          .catch(reject);
      }
      if (active.size === 0 && queue.size === 0) resolve();
    };
    options.signal?.addEventListener("abort", pump, { once: true });
    pump();
  });
}

/**
 * The queue, one first-in-first-out list per kind (and per monitoring for candidates), so that taking the next item
 * is a look at a few heads rather than a search and a splice of one array, which is quadratic over a large run.
 */
class KindQueues<Item extends WorkItem> {
  private readonly checks = new Fifo<Item>();
  private readonly judges = new Fifo<Item>();
  /** Candidates with the order they were queued in: they start in that order across both lists. */
  private readonly monitored = new Fifo<{ item: Item; at: number }>();
  private readonly plain = new Fifo<{ item: Item; at: number }>();
  private queued = 0;

  get size(): number {
    return this.checks.size + this.judges.size + this.monitored.size + this.plain.size;
  }

  push(item: Item): void {
    if (item.kind === "check") this.checks.push(item);
    else if (item.kind === "judge") this.judges.push(item);
    else (item.monitored ? this.monitored : this.plain).push({ item, at: this.queued++ });
  }

  /**
   * Checks, then judges, then the first candidate in queue order that `mayStart` lets start. Every monitored
   * candidate gets the same answer, and so does every plain one (a monitored one needs a lane more): when the first
   * candidate may not start, only the first plain one can.
   */
  take(mayStart: (candidate: Item) => boolean): Item | undefined {
    const work = this.checks.take() ?? this.judges.take();
    if (work) return work;
    const monitored = this.monitored.peek();
    const plain = this.plain.peek();
    const monitoredFirst = monitored !== undefined && (plain === undefined || monitored.at < plain.at);
    for (const list of monitoredFirst ? [this.monitored, this.plain] : [this.plain]) {
      const candidate = list.peek();
      if (candidate !== undefined && mayStart(candidate.item)) return list.take()!.item;
    }
    return undefined;
  }

  clear(): void {
    for (const list of [this.checks, this.judges, this.monitored, this.plain]) list.clear();
  }
}

/** First in, first out, taken from its head in constant time (Array.shift moves every item behind it). */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  take(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // Drop the taken part once it is most of the array, so a long run's queue does not hold every item it ever had.
    if (this.head > 1_024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
