// The scaffold stage: `openeval init` writes a new benchmark, or one more eval, from the package's templates/.
export { addEval, writeBenchmark, type Scaffolded } from "./write-benchmark.ts";
export { EVAL_TEMPLATES, STARTER_EVALS, guideFiles, type EvalTemplate } from "./templates.ts";
export { ScaffoldError, type ScaffoldSituation } from "./errors.ts";
