// One eval with cases (docs/guide/cases.md): the same question asked of several countries, from cases.jsonl and
// regression.cases.jsonl. The scripted controls cannot read the prompt: each always gives one answer, so it passes
// the cases whose expected answer that is and fails the others. Runs offline:
// `npx openeval run --benchmark examples/cases`, then `npx openeval report --benchmark examples/cases --cases`.
import type { Benchmark } from "openeval";

export default {
  models: ["control/paris", "control/tokyo"],
  repetitions: 1,
} satisfies Benchmark;
