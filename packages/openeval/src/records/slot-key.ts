// A slot is (eval, model, variant, repetition). `current` is the variant with no overrides and is never written
// into a key, so slots and rows recorded before variants existed keep their identity and read as current.
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import type { SlotKey } from "./schema.ts";

/** The variant of a slot, a record or a summary row: absent means current. */
export function variantOf(item: { variant?: string }): string {
  return item.variant ?? CURRENT_VARIANT_NAME;
}

/** The key of a slot (or of anything that extends one), with `variant` only when it is not current. */
export function toSlotKey(slot: SlotKey): SlotKey {
  const variant = variantOf(slot);
  return { evalId: slot.evalId, model: slot.model, repetition: slot.repetition, ...(variant === CURRENT_VARIANT_NAME ? {} : { variant }) };
}

/** One string per slot, for maps and sets. */
export function slotId(slot: SlotKey): string {
  return `${slot.evalId}\u0000${slot.model}\u0000${variantOf(slot)}\u0000${slot.repetition}`;
}

/** One string per (eval, candidate) cell of the eval × model matrix, for maps; `candidate` may be its name. */
export function cellId(evalId: string, candidate: CandidateRef | string): string {
  return `${evalId}\u0000${typeof candidate === "string" ? candidate : candidateName(candidate)}`;
}

/** A candidate: a model with an agent variant (`variant` absent for current, as in slot keys). */
export interface CandidateRef {
  model: string;
  variant?: string;
}

/** The candidate a slot (or a summary row) belongs to, as reports name it: the model, then `[variant]` unless current. */
export function candidateName(candidate: CandidateRef): string {
  const variant = variantOf(candidate);
  return variant === CURRENT_VARIANT_NAME ? candidate.model : `${candidate.model} [${variant}]`;
}

/** Items grouped per candidate in first-appearance order: the unit of every per-model statistic (SPEC §10). */
export function groupByCandidate<T extends CandidateRef>(items: readonly T[]): { candidate: CandidateRef; items: T[] }[] {
  const groups = new Map<string, { candidate: CandidateRef; items: T[] }>();
  for (const item of items) {
    const name = candidateName(item);
    const group = groups.get(name) ?? { candidate: candidateRefOf(item), items: [] };
    group.items.push(item);
    groups.set(name, group);
  }
  return [...groups.values()];
}

function candidateRefOf(item: CandidateRef): CandidateRef {
  const variant = variantOf(item);
  return { model: item.model, ...(variant === CURRENT_VARIANT_NAME ? {} : { variant }) };
}
