// Sandboxed verification on a real container engine (`npm run test:verification`): builds the verification image
// when it is missing (minutes, once) and runs the locked-down checks in it. Skips, saying why, without an engine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/openeval/src/judge/verification/**/*.engine-test.ts", "test/verification/**/*.test.ts"],
    testTimeout: 180_000,
    // The first run builds the image: Debian packages (Chromium) take minutes on a busy 2-core machine.
    hookTimeout: 1_800_000,
    pool: "forks",
    // One container at a time: each may use up to its CPU limit, and the machine is shared.
    fileParallelism: false,
  },
});
