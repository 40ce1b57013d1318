import assert from "node:assert/strict";
import { test } from "node:test";
import { total } from "./cart.js";

test("totals apply the discount", () => {
  assert.equal(total(100, "SAVE10"), 90);
  assert.equal(total(20, "HALF"), 10);
  assert.equal(total(100, "NOPE"), 100);
});
