// Benchmark folders the measurements run on, written into temp dirs: benchmark.ts plus generated tiny evals, or a
// copy of the example benchmark's `exact-answer` eval (one scripted text turn per control).
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { writeTree } from "./temp.ts";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");
export const EXACT_ANSWER = join(REPO_ROOT, "evals", "exact-answer");

export interface BenchmarkShape {
  models: string[];
  repetitions: number;
  /** `candidate.container.cpus`; unset leaves the default (the engine's CPUs, at most 2). */
  candidateCpus?: number;
}

/** benchmark.ts with the example's limits; it imports nothing, so it loads from any temp dir. */
export function benchmarkSource(shape: BenchmarkShape): string {
  const { candidateCpus, ...rest } = shape;
  const container = candidateCpus === undefined ? {} : { container: { cpus: candidateCpus } };
  const settings = { ...rest, judge: { timeoutMs: 60_000 }, candidate: { timeoutMs: 120_000, ...container } };
  return `export default ${JSON.stringify(settings)};\n`;
}

/** A one-eval benchmark: the example's exact-answer eval, unchanged. */
export async function writeExactAnswerBenchmark(directory: string, shape: BenchmarkShape): Promise<void> {
  await writeTree(directory, { "benchmark.ts": benchmarkSource(shape) });
  await cp(EXACT_ANSWER, join(directory, "evals", "exact-answer"), { recursive: true });
}

/** Eval `tiny-<n>`: answer with one word; positive/negative controls answer in one text turn, right or wrong. */
export function tinyEvalFiles(n: number): Record<string, string> {
  const id = `tiny-${String(n).padStart(3, "0")}`;
  const word = `WORD${n}`;
  const turn = (text: string) => JSON.stringify({ turns: [{ text, usage: { input: 1200, output: 3 } }] });
  return {
    [`evals/${id}/prompt.md`]: `Reply with exactly ${word}.\n`,
    [`evals/${id}/judge.ts`]: `export default ({ response }) => ({ scores: { correct_answer: response.text === ${JSON.stringify(word)} } });\n`,
    [`evals/${id}/controls/positive.json`]: turn(word),
    [`evals/${id}/controls/negative.json`]: turn(word.toLowerCase()),
  };
}

export async function writeTinyBenchmark(directory: string, evals: number, shape: BenchmarkShape): Promise<void> {
  const files: Record<string, string> = { "benchmark.ts": benchmarkSource(shape) };
  for (let n = 1; n <= evals; n++) Object.assign(files, tinyEvalFiles(n));
  await writeTree(directory, files);
}
