// Runs the `openeval` command line in this process, then writes every module it loaded, one path a line, to the file
// named by OPENEVAL_MODULE_PROBE (Bun's require.cache lists ES modules too): journeys check what a command loads.
// Usage: OPENEVAL_MODULE_PROBE=<file> bun test/helpers/module-probe.ts <openeval arguments...>
import { writeFileSync } from "node:fs";

await import("../../packages/openeval/src/cli/main.ts");
writeFileSync(process.env.OPENEVAL_MODULE_PROBE!, Object.keys(require.cache).join("\n"));
