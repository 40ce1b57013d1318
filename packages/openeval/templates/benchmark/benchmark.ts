// The benchmark: which models do the evals in evals/, how many times each, and which model grades the rubrics.
// As written it runs offline: control/positive and control/negative are scripted models that play each eval's
// controls/*.json, and control/judge submits the verdicts those files declare. README.md says what to change.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive", "control/negative"],
  repetitions: 1,
  judge: { model: "control/judge" },
} satisfies Benchmark;
