// A recorded slot as the matrix and the comparison pages show it: its eval run, its judge run and its credit.
import { slotCredit } from "../results/index.ts";
import type { RecordedSlot } from "../summary/index.ts";
import type { SlotCell } from "./api-types.ts";

export function toSlotCell(slot: RecordedSlot): SlotCell {
  return {
    repetition: slot.repetition,
    ...(slot.case === undefined ? {} : { case: slot.case }),
    evalRunId: slot.evalRun?.id ?? null,
    state: slot.evalRun?.state ?? "pending",
    judgeRunId: slot.judgeRun?.id ?? null,
    judgeState: slot.judgeRun?.state ?? null,
    value: slotCredit(slot.scores),
  };
}
