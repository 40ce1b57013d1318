// The example benchmark: runs offline with scripted control models (no keys needed).
// Try real models with `npx openeval run --model provider/model`.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive", "control/negative"],
  repetitions: 2,
  judge: { model: "control/judge", timeoutMs: 60_000 },
  candidate: { timeoutMs: 120_000 },
} satisfies Benchmark;
