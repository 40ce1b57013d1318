// The scripted control provider for a benchmark, served on 127.0.0.1: every eval's control files, plus the
// scripted judge (`control/judge`) that plays each control's declared verdict through the submission tool.
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { judgeControls } from "../judge/index.ts";
import type { BenchmarkDefinition } from "../load/index.ts";

export function startControls(benchmark: BenchmarkDefinition): Promise<ControlServer> {
  return startControlServer({
    controls: Object.fromEntries(
      benchmark.evals.map((evaluation) => [
        evaluation.id,
        { ...evaluation.controls, ...judgeControls(evaluation.controls) },
      ]),
    ),
  });
}
