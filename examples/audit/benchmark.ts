// Two evals of one task for `openeval audit`: weak-count's judge only checks that the file the prompt names exists,
// so writing that file from the prompt alone passes it; strong-count's judge checks the count against the log, which
// the prompt does not give. Runs offline: `npx openeval audit --benchmark examples/audit` exits 1 naming weak-count.
import type { Benchmark } from "openeval";

export default {
  models: ["control/positive"],
  repetitions: 1,
} satisfies Benchmark;
