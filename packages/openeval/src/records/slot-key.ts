// A slot is (eval, case, model, variant, repetition); `current` is the variant with no overrides. Every slot key in
// memory names its variant. Stored rows leave `current` out, as every row recorded before variants does: old and new
// rows then have one stored form, one integrity hash and one value in the store's variant column (toStoredRow). Only
// an eval with cases has a `case`: the keys of every other eval, stored and in memory, are what they always were.
import type * as z from "zod";
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import type { SlotKey, SlotKeySchema } from "./schema.ts";

/** The variant of a candidate or a summary row, where absent means current (slot keys always have theirs). */
export function variantOf(item: { variant?: string }): string {
  return item.variant ?? CURRENT_VARIANT_NAME;
}

/** The key of a slot (or of anything that extends one): its fields and nothing else (`case` only when it has one). */
export function toSlotKey(slot: SlotKey): SlotKey {
  const key: SlotKey = { evalId: slot.evalId, model: slot.model, variant: slot.variant, repetition: slot.repetition };
  if (slot.case !== undefined) key.case = slot.case;
  return key;
}

/** One string per slot, for maps and sets: what makes two slots the same, and the only place that says it. */
export function slotId(slot: SlotKey): string {
  const key = `${slot.evalId}\u0000${slot.model}\u0000${slot.variant}\u0000${slot.repetition}`;
  return slot.case === undefined ? key : `${key}\u0000${slot.case}`;
}

/** Whether two keys name the same slot (slotId decides). */
export function sameSlot(a: SlotKey, b: SlotKey): boolean {
  return slotId(a) === slotId(b);
}

/** A slot key as stored: `variant` left out for current (see the top of this file). */
export type StoredSlotKey = z.input<typeof SlotKeySchema>;

/** A row as the store writes it and its integrity hash covers it: its slot with `current` left out. */
export function toStoredRow<R extends { slot: SlotKey }>(row: R): Omit<R, "slot"> & { slot: StoredSlotKey } {
  if (row.slot.variant !== CURRENT_VARIANT_NAME) return row;
  const { variant: _current, ...slot } = row.slot;
  return { ...row, slot };
}

/** A stored slot as the key it is: without a variant, current (SlotKeySchema's default, for rows read without it). */
export function fromStoredSlot(slot: StoredSlotKey): SlotKey {
  return toSlotKey({ ...slot, variant: slot.variant ?? CURRENT_VARIANT_NAME });
}

/** One string per (eval, candidate) cell of the eval × model matrix, for maps; `candidate` may be its name. */
export function cellId(evalId: string, candidate: CandidateRef | string): string {
  return `${evalId}\u0000${typeof candidate === "string" ? candidate : candidateName(candidate)}`;
}

/** A candidate: a model with an agent variant (`variant` absent for current, as summary rows name it). */
export interface CandidateRef {
  model: string;
  variant?: string;
}

/** The candidate a slot (or a summary row) belongs to, as reports name it: the model, then `[variant]` unless current. */
export function candidateName(candidate: CandidateRef): string {
  const variant = variantOf(candidate);
  return variant === CURRENT_VARIANT_NAME ? candidate.model : `${candidate.model} [${variant}]`;
}

/** Items grouped per candidate in first-appearance order: the unit of every per-model statistic. */
export function groupByCandidate<T extends CandidateRef>(
  items: readonly T[],
): { candidate: CandidateRef; items: T[] }[] {
  const groups = new Map<string, { candidate: CandidateRef; items: T[] }>();
  for (const item of items) {
    const name = candidateName(item);
    const group = groups.get(name) ?? { candidate: toCandidateRef(item), items: [] };
    group.items.push(item);
    groups.set(name, group);
  }
  return [...groups.values()];
}

/** The candidate of a slot or a row, as summary rows and the viewer's rows carry it: `variant` only when it is not current. */
export function toCandidateRef(item: CandidateRef): CandidateRef {
  const variant = variantOf(item);
  return { model: item.model, ...(variant === CURRENT_VARIANT_NAME ? {} : { variant }) };
}
