// `openeval engines`: lists the pool candidates and verifications are placed on, with each engine's health, capacity,
// version and the benchmark's images it holds. Exits 1 when an engine does not answer.
import { loadBenchmark } from "../load/index.ts";
import { describeEngines } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT } from "./errors.ts";

export const enginesCommand = defineCommand("engines", {
  async run(flags) {
    const benchmark = await loadBenchmark(flags.benchmark as string);
    const engines = await describeEngines(benchmark);
    if (flags.json) console.log(JSON.stringify({ engines }));
    else
      for (const engine of engines) {
        const capacity = engine.capacity === null ? "as many as the run's concurrency" : `${engine.capacity} at once`;
        const health = engine.answers
          ? `answers (Docker ${engine.version}, API ${engine.apiVersion})`
          : `does not answer: ${engine.problem}`;
        console.log(
          `${engine.name}  ${engine.address}  ${capacity}  ${health}${engine.insecure ? "  [insecure: plain TCP]" : ""}`,
        );
        const images = Object.entries(engine.images);
        if (images.length > 0)
          console.log(
            `  images: ${images.map(([what, present]) => `${what} ${present ? "present" : "missing (run carries it)"}`).join("; ")}`,
          );
      }
    return engines.every((engine) => engine.answers) ? EXIT.pass : EXIT.verdictFail;
  },
});
