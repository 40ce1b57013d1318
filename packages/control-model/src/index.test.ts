import { expect, it } from "vitest";
import * as api from "./index.ts";

it("exports exactly the public API", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ControlFileError",
    "ControlFileSchema",
    "loadControlFile",
    "startControlServer",
  ]);
});
