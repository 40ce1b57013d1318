// A slot is (eval, model, variant, repetition). `current` is the variant with no overrides and is never written
// into a key, so slots and rows recorded before variants existed keep their identity and read as current.
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import type { SlotKey } from "./schema.ts";

export function variantOf(slot: SlotKey): string {
  return slot.variant ?? CURRENT_VARIANT_NAME;
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

/** The candidate a slot belongs to, as reports name it: the model, then `[variant]` unless it is current. */
export function candidateName(slot: { model: string; variant?: string }): string {
  return slot.variant === undefined || slot.variant === CURRENT_VARIANT_NAME ? slot.model : `${slot.model} [${slot.variant}]`;
}
