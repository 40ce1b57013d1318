// The scripted control provider for a benchmark: every eval's control files, served on 127.0.0.1.
import { startControlServer, type ControlServer } from "@openeval/control-model";
import type { BenchmarkDefinition } from "../load/index.ts";

export function startControls(benchmark: BenchmarkDefinition): Promise<ControlServer> {
  return startControlServer({ controls: Object.fromEntries(benchmark.evals.map((evaluation) => [evaluation.id, evaluation.controls])) });
}
