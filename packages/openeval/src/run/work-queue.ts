// One queue of candidate, judge and earlyStop check work under a concurrency limit. Checks go first (a running
// candidate waits on them), then judges, so that grading keeps up with recording; work added while running joins
// the same queue. While a monitored (earlyStop) candidate runs, candidates leave one lane free for checks. An
// admission (each provider's share, provider-limiter.ts) may hold some candidates back; the others still start.
import type { WorkQueueState } from "../summary/index.ts";

export type { WorkQueueState };

export interface WorkItem {
  kind: "candidate" | "judge" | "check";
  /** A candidate watched by earlyStop checks. */
  monitored?: boolean;
}

/** Which queued candidates may start beyond the free lanes, decided outside the queue (each provider's share). */
export interface CandidateAdmission<Item> {
  /** Candidates of one group start in queue order; a group that admits none holds up no other. */
  groupOf(item: Item): string;
  admits(item: Item): boolean;
  started(item: Item): void;
  finished(item: Item): void;
  /** Calls back when more may start without any work finishing; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export async function runWorkQueue<Item extends WorkItem>(
  initial: readonly Item[],
  concurrency: number,
  handle: (item: Item, enqueue: (next: Item) => void) => Promise<void>,
  options: {
    signal?: AbortSignal;
    onChange?: (state: WorkQueueState) => void;
    admission?: CandidateAdmission<Item>;
  } = {},
): Promise<void> {
  const { admission } = options;
  const queue = new KindQueues<Item>((item) => admission?.groupOf(item) ?? "");
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
    return running.candidates + 1 <= concurrency - reserve && (admission?.admits(candidate) ?? true);
  };
  const countRunning = (item: Item, by: 1 | -1) => {
    if (item.kind !== "candidate") return;
    running.candidates += by;
    if (item.monitored) running.monitored += by;
    if (by === 1) admission?.started(item);
    else admission?.finished(item);
  };

  // The admission may widen while nothing finishes (a provider's retry went out): the queue looks again then.
  let pump = () => {};
  const unsubscribe = admission?.subscribe(() => pump());
  await new Promise<void>((resolve, reject) => {
    pump = () => {
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
  }).finally(() => unsubscribe?.());
}

/**
 * The queue, one first-in-first-out list per kind, and for candidates per monitoring and admission group, so that
 * taking the next item is a look at a few heads rather than a search and a splice of one array, which is quadratic
 * over a large run.
 */
class KindQueues<Item extends WorkItem> {
  private readonly checks = new Fifo<Item>();
  private readonly judges = new Fifo<Item>();
  /** Candidates by group, each with the order it was queued in: they start in that order across the lists. */
  private readonly candidates = new Map<string, Fifo<{ item: Item; at: number }>>();
  private queued = 0;
  private candidateCount = 0;

  constructor(private readonly groupOf: (candidate: Item) => string) {}

  get size(): number {
    return this.checks.size + this.judges.size + this.candidateCount;
  }

  push(item: Item): void {
    if (item.kind === "check") this.checks.push(item);
    else if (item.kind === "judge") this.judges.push(item);
    else {
      const key = `${item.monitored ? "monitored" : "plain"}\u0000${this.groupOf(item)}`;
      let list = this.candidates.get(key);
      if (!list) this.candidates.set(key, (list = new Fifo()));
      list.push({ item, at: this.queued++ });
      this.candidateCount++;
    }
  }

  /**
   * Checks, then judges, then the first candidate in queue order that `mayStart` lets start. Within a list every
   * candidate gets the same answer (same monitoring, same group), so only the lists' heads are asked, oldest first.
   */
  take(mayStart: (candidate: Item) => boolean): Item | undefined {
    const work = this.checks.take() ?? this.judges.take();
    if (work) return work;
    const heads = [...this.candidates.values()]
      .filter((list) => list.size > 0)
      .sort((a, b) => a.peek()!.at - b.peek()!.at);
    for (const list of heads) {
      if (!mayStart(list.peek()!.item)) continue;
      this.candidateCount--;
      return list.take()!.item;
    }
    return undefined;
  }

  clear(): void {
    for (const list of [this.checks, this.judges, ...this.candidates.values()]) list.clear();
    this.candidateCount = 0;
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
