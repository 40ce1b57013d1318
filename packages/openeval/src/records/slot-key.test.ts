import { describe, expect, it } from "vitest";
import { fromStoredSlot, slotId, toSlotKey, toStoredRow } from "./slot-key.ts";

describe("slot keys", () => {
  const plain = { evalId: "e", model: "p/m", variant: "current", repetition: 2 };

  it("an eval without cases keeps the key it always had, in memory and stored", () => {
    expect(slotId(plain)).toBe("e\u0000p/m\u0000current\u00002");
    expect(toSlotKey({ ...plain, extra: 1 } as typeof plain)).toEqual(plain);
    expect(Object.keys(toSlotKey(plain))).not.toContain("case");
    expect(toStoredRow({ slot: plain }).slot).toEqual({ evalId: "e", model: "p/m", repetition: 2 });
    expect(fromStoredSlot({ evalId: "e", model: "p/m", repetition: 2 })).toEqual(plain);
  });

  it("a case is part of the key: two cases of one eval are two slots, and the case survives storing", () => {
    const late = { ...plain, case: "late" };
    expect(slotId(late)).not.toBe(slotId(plain));
    expect(slotId(late)).not.toBe(slotId({ ...plain, case: "early" }));
    expect(toSlotKey(late)).toEqual(late);
    expect(fromStoredSlot(toStoredRow({ slot: late }).slot)).toEqual(late);
  });
});
