// The container suites on a real engine (`npm run test:containers`): the sandbox contract on the container engine,
// sandboxed verification and candidates in containers. Builds the images when they are missing (minutes, once).
// Skips, saying why, without an engine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/openeval/src/**/*.engine-test.ts",
      "test/verification/**/*.test.ts",
      "test/containers/**/*.test.ts",
    ],
    testTimeout: 180_000,
    // The first run builds the images: Debian packages (Chromium) take minutes on a busy 2-core machine.
    hookTimeout: 1_800_000,
    pool: "forks",
    // One container at a time: each may use up to its CPU limit, and the machine is shared.
    fileParallelism: false,
  },
});
