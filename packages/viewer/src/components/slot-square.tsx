// One slot's square in a matrix cell: coloured by its credit or state, titled with its case, repetition, states and
// integrity flag, and opening its eval run once it has one.
import { describeState, type MatrixSlotCell } from "openeval/viewer-api";
import { creditClass, formatCredit } from "../format.ts";
import { href } from "../route.ts";
import { describeIntegrityFlag } from "./integrity-flag.tsx";

export function SlotSquare({ run, slot }: { run: string; slot: MatrixSlotCell }) {
  const title = `${slot.case === undefined ? "" : `case ${slot.case} `}#${slot.repetition}: ${describeState(slot.state)}${slot.judgeState ? `, judge ${describeState(slot.judgeState)}` : ""}${slot.value !== null ? `, ${formatCredit(slot.value)}` : ""}${slot.integrity ? `, ${describeIntegrityFlag(slot.integrity)}` : ""}`;
  const className = `slot ${slot.state === "running" ? "slot-running" : slot.state === "pending" ? "slot-pending" : creditClass(slot.value)}${slot.integrity ? ` slot-flagged-${slot.integrity.severity}` : ""}`;
  if (!slot.evalRunId) return <span className={className} title={title} />;
  return (
    <a
      className={className}
      title={title}
      href={href({ page: "eval-run", run, evalRun: slot.evalRunId })}
      data-repetition={slot.repetition}
    />
  );
}
