import assert from "node:assert/strict";
import { test } from "node:test";
import { discountRate } from "./rates.js";

test("rates are fractions of the price", () => {
  assert.equal(discountRate("SAVE10"), 0.1);
  assert.equal(discountRate("HALF"), 0.5);
  assert.equal(discountRate("NOPE"), 0);
});
