// A benchmark with criterion categories that runs offline: three priced controls with different strengths, four
// code-judged evals whose criteria fall in five categories (one criterion in two, one category in two evals only).
// Each control replies with the credit of every criterion ("correct=0.9 quick=1 …") and the judge scores what it
// says, so the per-category scores differ by candidate and by eval (their CIs have width) and are known in advance.

const EVALS = ["refund", "summary", "schedule", "translate"] as const;

/** Criterion id → its name and categories; `safe` is graded only in the first two evals. */
const CRITERIA: Record<string, { name: string; categories: string[] }> = {
  correct: { name: "Gets the facts right", categories: ["accuracy"] },
  quick: { name: "Answers in one step", categories: ["speed"] },
  polite: { name: "Polite", categories: ["tone"] },
  tidy: { name: "Formatted as asked", categories: ["format", "tone"] },
  safe: { name: "Declines the unsafe part", categories: ["safety"] },
};
const criteriaOf = (evalIndex: number) => Object.keys(CRITERIA).filter((id) => id !== "safe" || evalIndex < 2);

/** Each control's usual credit per criterion; each eval moves it a little (JITTER), within 0–1. */
const PROFILES: Record<string, Record<string, number>> = {
  careful: { correct: 0.95, quick: 0.35, polite: 0.9, tidy: 0.85, safe: 1 },
  fast: { correct: 0.55, quick: 0.95, polite: 0.6, tidy: 0.4, safe: 0.5 },
  blunt: { correct: 0.8, quick: 0.7, polite: 0.15, tidy: 0.7, safe: 0.25 },
};
const JITTER = [0, -0.1, 0.05, -0.2];

/** USD per million tokens, and the tokens of each reply: the careful control costs most. */
const PRICES: Record<string, { input: number; output: number; usage: { input: number; output: number } }> = {
  careful: { input: 3, output: 15, usage: { input: 4000, output: 800 } },
  fast: { input: 0.5, output: 2, usage: { input: 1000, output: 100 } },
  blunt: { input: 1, output: 4, usage: { input: 2000, output: 300 } },
};

/** The models the benchmark runs, in benchmark.ts order. */
export const CATEGORY_MODELS = Object.keys(PROFILES).map((name) => `control/${name}`);

const credit = (control: string, criterion: string, evalIndex: number) =>
  Math.round(Math.min(1, Math.max(0, PROFILES[control]![criterion]! + JITTER[evalIndex]!)) * 100) / 100;

const JUDGE = (evalIndex: number) => `// The control's reply states each criterion's credit: "correct=0.9 quick=1 …".
export const criteria = ${JSON.stringify(Object.fromEntries(criteriaOf(evalIndex).map((id) => [id, CRITERIA[id]])))};
export default ({ response }) => ({
  scores: Object.fromEntries(
    response.text.trim().split(/\\s+/).map((pair) => {
      const [id, value] = pair.split("=");
      return [id, Number(value)];
    }),
  ),
});
`;

export function categoryBenchmark(): Record<string, string> {
  const models = Object.fromEntries(
    Object.entries(PRICES).map(([name, price]) => [name, { cost: { input: price.input, output: price.output } }]),
  );
  const files: Record<string, string> = {
    "benchmark.ts": `export default {
  models: ${JSON.stringify(CATEGORY_MODELS)},
  repetitions: 2,
  concurrency: 4,
  candidate: { providers: { control: { models: ${JSON.stringify(models)} } } },
};\n`,
  };
  for (const [evalIndex, evalId] of EVALS.entries()) {
    files[`evals/${evalId}/prompt.md`] = `Handle the ${evalId} request.\n`;
    files[`evals/${evalId}/judge.ts`] = JUDGE(evalIndex);
    for (const control of Object.keys(PROFILES)) {
      const text = criteriaOf(evalIndex)
        .map((id) => `${id}=${credit(control, id, evalIndex)}`)
        .join(" ");
      files[`evals/${evalId}/controls/${control}.json`] = JSON.stringify({
        turns: [{ text, usage: PRICES[control]!.usage }],
      });
    }
  }
  return files;
}
