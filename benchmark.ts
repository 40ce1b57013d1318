// The example benchmark: runs offline with scripted control models (no keys needed).
// Try real models with `npx openeval run --model provider/model`.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive", "control/negative"],
  repetitions: 2,
  // No time limits here: the defaults (45 min a candidate, 10 min a judge) leave room for a loaded machine.
  judge: { model: "control/judge" },
  // An agent variant: current (the agent as it is) and this arm, which adds an AGENTS.md. Controls play the same
  // script either way, so the comparison with current is an honest "no difference" here.
  variants: { concise: { instructions: { file: "variants/AGENTS.concise.md" } } },
} satisfies Benchmark;
