// Browser tests (`npm run test:browser`): the viewer in Debian's headless Chromium (/usr/bin/chromium, driven by
// playwright-core) over the example benchmark's results, served and exported. Screenshots go to test-artifacts/.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 120_000,
    // beforeAll runs the example benchmark and examples/verification once (real OpenCode sessions, scripted controls).
    hookTimeout: 3_000_000,
    pool: "forks",
    fileParallelism: false,
  },
});
