// What `openeval init` refuses: it never overwrites a file, and adds evals only to a benchmark, under a valid id.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  benchmarkFilesExist: {
    code: "OE_INIT_WOULD_OVERWRITE",
    message: ({ directory, existing }: { directory: string; existing: string[] }) =>
      `${directory} already holds ${existing.join(", ")}; init overwrites nothing. ` +
      (existing.includes("benchmark.ts")
        ? `To add an eval to this benchmark: \`openeval init <dir> --eval <id>\`; for a new benchmark, name a new folder: \`openeval init <dir>\``
        : `Name a new folder for the benchmark: \`openeval init <dir>\``),
  },
  evalExists: {
    code: "OE_INIT_WOULD_OVERWRITE",
    message: ({ id, path }: { id: string; path: string }) =>
      `eval "${id}" exists already (${path}); init overwrites nothing: pick another id`,
  },
  notAFolder: {
    code: "OE_INIT_WOULD_OVERWRITE",
    message: ({ path }: { path: string }) => `${path} is a file, not a folder; name a folder for the benchmark`,
  },
  noBenchmark: {
    code: "OE_INIT_NO_BENCHMARK",
    message: ({ directory }: { directory: string }) =>
      `${directory} has no benchmark.ts: --eval adds an eval to a benchmark. Write one first with \`openeval init ${directory}\`, or name the benchmark's folder`,
  },
  evalIdInvalid: {
    code: "OE_INIT_EVAL_ID_INVALID",
    message: ({ id }: { id: string }) =>
      `eval id "${id}" must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it names the folder evals/<id>/)`,
  },
} as const satisfies Record<string, Situation>;

export type ScaffoldSituation = keyof typeof SITUATIONS;

export class ScaffoldError<S extends ScaffoldSituation = ScaffoldSituation> extends SituationError<
  typeof SITUATIONS,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
