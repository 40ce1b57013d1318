// Run-stage errors that stop a run before any candidate starts; each names what to fix.
import { OpenEvalError } from "../util/errors.ts";

/** A benchmark input (a workspace file, a judge-only file, a judge) holds a secret this runner knows. */
export class InputSecretError extends OpenEvalError {
  readonly code = "OE_INPUT_HOLDS_SECRET";
  constructor(readonly found: { path: string; sources: string[] }[]) {
    super(
      `The benchmark's inputs hold secrets this runner knows, so no candidate was started and these files were not frozen into results/:\n` +
        found.map((file) => `  ${file.path}: the value of ${file.sources.join(", ")}`).join("\n") +
        "\nA benchmark's files are handed to candidates and judges and kept with the run: remove the secret from each file, then run again",
    );
  }
}

/** `--isolation process` (or benchmark.ts's) asked for evals that bring their own environment image. */
export class EnvironmentIsolationError extends OpenEvalError {
  readonly code = "OE_ENVIRONMENT_NEEDS_CONTAINER";
  constructor(
    readonly evals: readonly string[],
    setting: string,
  ) {
    super(
      `${setting} cannot run ${evals.length === 1 ? "eval" : "evals"} ${evals.map((id) => `"${id}"`).join(", ")}: ${evals.length === 1 ? "it brings its own environment" : "they bring their own environments"} (environment/), which only a container runs. Remove ${setting}, or leave ${evals.length === 1 ? "it" : "them"} out with --only-eval`,
    );
  }
}

/** An eval's own control file bears the name of one of `openeval audit`'s attacks, which would silently replace it. */
export class AuditControlNameError extends OpenEvalError {
  readonly code = "OE_AUDIT_CONTROL_NAME_TAKEN";
  constructor(readonly taken: readonly { evalId: string; name: string }[]) {
    super(
      `openeval audit plays its own control/attack-… candidates, and these evals have control files of the same name:\n` +
        taken.map(({ evalId, name }) => `  evals/${evalId}/controls/${name}.json`).join("\n") +
        "\nRename those control files (any name not starting with attack-), then audit again",
    );
  }
}
