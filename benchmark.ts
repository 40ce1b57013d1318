// The example benchmark: runs offline with scripted control models (no keys needed).
// Try real models with `npx openeval run --model provider/model`.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive", "control/negative"],
  repetitions: 2,
  judge: { model: "control/judge", timeoutMs: 60_000 },
  candidate: { timeoutMs: 120_000 },
  // An agent variant: current (the agent as it is) and this arm, which adds an AGENTS.md. Controls play the same
  // script either way, so the comparison with current is an honest "no difference" here.
  variants: { concise: { instructions: { file: "variants/AGENTS.concise.md" } } },
} satisfies Benchmark;
