// Three Harbor-format tasks (task.toml, instruction.md, environment/, tests/, solution/), read in place as evals.
// Needs a container engine: `npx openeval run --benchmark examples/harbor` builds each task's environment, runs the
// built-in oracle (the task's solution/solve.sh) and nop controls, and grades them with each task's tests/test.sh.
import type { Benchmark } from "openeval";

export default {
  models: ["control/oracle", "control/nop"],
  repetitions: 1,
} satisfies Benchmark;
