// Default suite (`npm test`): unit tests beside the code plus fast journeys. Tests that start real OpenCode sessions
// (`*.session-test.ts`) and slow journeys (test/e2e-slow) run in `npm run test:e2e`. The time limits here only catch
// a hang: a loaded 2-core machine must never reach them.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "test/e2e/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
