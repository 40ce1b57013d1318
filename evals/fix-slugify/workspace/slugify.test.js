import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "./slugify.js";

test("joins every word with a single hyphen", () => {
  assert.equal(slugify("  Hello, Big   World! "), "hello-big-world");
});
