// End-to-end suite (`npm run test:e2e`): real OpenCode sessions against the scripted control models on 127.0.0.1,
// from the stages' own session tests (`*.session-test.ts` beside the code) to whole benchmark runs (test/e2e-slow).
// CI runs it after the default suite.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.session-test.ts", "test/e2e-slow/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // One file at a time: each OpenCode session already keeps both cores busy.
    fileParallelism: false,
  },
});
