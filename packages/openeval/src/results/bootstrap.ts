// Seeded resampling: a small deterministic PRNG (mulberry32), per-subject seeds, and the percentile bootstrap.
// The same data and seed always give the same interval, on any machine, whatever else is in the run.
import { nearestRank } from "./numbers.ts";

export const DEFAULT_RESAMPLES = 2000;
/** The default seed; any 32-bit integer works. Fixed so that reports are reproducible. */
export const DEFAULT_SEED = 20_260_101;
export const CONFIDENCE_LEVEL = 0.95;

export interface BootstrapOptions {
  /** Number of bootstrap resamples (B); default 2000. */
  resamples?: number;
  /** PRNG seed; default DEFAULT_SEED. The same seed gives the same interval. */
  seed?: number;
}

export interface Interval {
  lower: number;
  upper: number;
}

/** A uniform [0, 1) generator. */
export interface Random {
  (): number;
  /** Moves past the next `count` values without making them: the stream then goes on as if they had been drawn. */
  skip(count: number): void;
}

const STEP = 0x6d2b79f5;

/**
 * mulberry32: a 32-bit-state PRNG, fast, and good enough for resampling indices; deterministic per seed. Its state
 * moves by a constant per value, so skipping values is one addition.
 * @example const random = createRandom(42); random() // same value on every run
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const random = (() => {
    state = (state + STEP) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  }) as Random;
  random.skip = (count) => {
    state = (state + Math.imul(count, STEP)) >>> 0;
  };
  return random;
}

/**
 * Mixes a subject name (a model id, a pair of models) into the seed (FNV-1a), so each subject gets its own
 * stream: one model's interval does not change when another model joins the run.
 * @example seedFor(DEFAULT_SEED, "openai/gpt-5")
 */
export function seedFor(seed: number, subject: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < subject.length; index++) {
    hash = Math.imul(hash ^ subject.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash;
}

/** A uniformly drawn element of a non-empty list. */
export function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * Percentile bootstrap: calls `statistic` B times with the seeded generator (each call draws one resample and
 * returns its statistic) and returns the central 95% of the results (nearest-rank 2.5th and 97.5th percentiles).
 * @example bootstrapInterval((random) => mean(values.map(() => pick(values, random))), { seed: 1 })
 */
export function bootstrapInterval(
  statistic: (random: Random) => number,
  options: BootstrapOptions & { subject: string },
): Interval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a whole number from 1; got ${resamples}`);
  const random = createRandom(seedFor(options.seed ?? DEFAULT_SEED, options.subject));
  const results = Array.from({ length: resamples }, () => statistic(random)).sort((a, b) => a - b);
  const tail = (1 - CONFIDENCE_LEVEL) / 2;
  return { lower: nearestRank(results, tail), upper: nearestRank(results, 1 - tail) };
}
