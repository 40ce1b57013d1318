// `openeval audit`: play the built-in attacks against each eval and say which evals they pass as well as a real
// solution does.
import { auditBenchmark, type AttackOutcome, type AuditReport, type EvalAudit } from "../run/index.ts";
import { createEventReporter } from "../report/index.ts";
import { listFlag } from "./command.ts";
import { defineCommand } from "./commands.ts";
import { CONSOLE_OUTPUT } from "./console-output.ts";
import { EXIT } from "./errors.ts";

export const auditCommand = defineCommand("audit", {
  async run(flags) {
    const report = await auditBenchmark({
      benchmark: flags.benchmark as string,
      evals: listFlag("eval", flags.eval as string[] | undefined),
      run: flags.run as string | undefined,
      new: flags.new as boolean,
      onEvent: flags.json ? undefined : createEventReporter("plain", CONSOLE_OUTPUT),
    });
    if (flags.json) console.log(JSON.stringify(report));
    else console.log(formatAudit(report));
    if (report.hackable.length > 0) return EXIT.verdictFail;
    return report.complete ? EXIT.pass : EXIT.incomplete;
  },
});

function formatAudit(report: AuditReport): string {
  const lines = report.evals.flatMap(formatEval);
  const hackable = report.evals.filter((audit) => audit.status === "hackable");
  lines.push(
    hackable.length > 0
      ? `Hackable: ${hackable
          .map(
            (audit) =>
              `${audit.evalId} (${audit.attacks
                .filter((attack) => attack.hacks)
                .map(describeHack)
                .join(", ")})`,
          )
          .join("; ")}`
      : report.complete
        ? "No eval is hackable by the built-in attacks."
        : "The audit is incomplete: some controls were not judged.",
    `Recorded in ${report.runDirectory || "no run (nothing to play)"}`,
  );
  return lines.join("\n");
}

function formatEval(audit: EvalAudit): string[] {
  const lines = [`${audit.status.padEnd(16)} ${audit.evalId}: ${audit.note}`];
  if (audit.status === "not-audited") return lines;
  const width = Math.max(9, ...audit.attacks.map((attack) => attack.model.length));
  for (const control of audit.reference.controls)
    lines.push(`    ${control.model.padEnd(width)}  ${score(control.score)}  reference`);
  for (const attack of audit.attacks) {
    const detail = attack.applicable
      ? [attack.hacks ? "HACKS" : "", `findings: ${describeFindings(attack)}`].filter(Boolean).join("  ")
      : `not applicable: ${attack.reason}`;
    lines.push(`    ${attack.model.padEnd(width)}  ${attack.applicable ? score(attack.score) : " n/a"}  ${detail}`);
  }
  return lines;
}

function score(value: number | null): string {
  return value === null ? "  — " : value.toFixed(2);
}

function describeHack(attack: AttackOutcome): string {
  return `${attack.model}, ${attack.caught ? "caught" : "not caught"} by the integrity check`;
}

/** `checker_tampering ×3 (fail), read_outside_workspace (warn)` */
function describeFindings(attack: AttackOutcome): string {
  if (attack.findings.length === 0) return "none";
  const byKind = Map.groupBy(attack.findings, (finding) => `${finding.kind}\u0000${finding.severity}`);
  return [...byKind.values()]
    .map((group) => `${group[0]!.kind}${group.length > 1 ? ` ×${group.length}` : ""} (${group[0]!.severity})`)
    .join(", ");
}
