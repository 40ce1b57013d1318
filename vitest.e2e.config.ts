// Slow end-to-end journeys (`npm run test:e2e`): whole benchmark runs with real OpenCode sessions against the
// scripted control models on 127.0.0.1. CI runs them after the default suite.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e-slow/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // One benchmark run at a time: each already keeps OpenCode busy on both cores.
    fileParallelism: false,
  },
});
