import assert from "node:assert/strict";
import { test } from "node:test";
import { discountLabel } from "./receipt.js";

test("receipts show the discount in percent", () => {
  assert.equal(discountLabel("SAVE10"), "10% off");
  assert.equal(discountLabel("HALF"), "50% off");
  assert.equal(discountLabel("NOPE"), "");
});
