import { describe, expect, it } from "vitest";
import { RunMaintenanceError } from "./errors.ts";

describe("RunMaintenanceError: its situations' messages come from typed data", () => {
  it("names each model remove-models cannot retire, in the order given, and says what to do about each", () => {
    const error = new RunMaintenanceError("modelsNotRemovable", {
      absent: [
        { model: "p/b", retired: false },
        { model: "p/a", retired: true },
      ],
      active: ["p/c", "p/d"],
    });
    expect(error.code).toBe("OE_RUN_MAINTENANCE");
    expect(error.message).toBe(
      "remove-models: p/b is not a model of this run; its models are: p/c, p/d; p/a is already retired from this run; `openeval add-models` brings it back",
    );
  });
});
