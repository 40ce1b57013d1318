// An example benchmark whose judge checks the candidate's page in the sandboxed verification container.
// Needs a container engine and the image: `npx openeval image --verification`, then
// `npx openeval run --benchmark examples/verification`.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive", "control/negative"],
  repetitions: 1,
} satisfies Benchmark;
