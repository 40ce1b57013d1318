import { describe, expect, it } from "vitest";
import { describeVerdict, exitCodeFor, formatVerdictWords } from "./verdict-words.ts";

describe("exitCodeFor", () => {
  it("maps complete + pass to 0, a fail to 1, and incomplete or undecided to 3", () => {
    expect(exitCodeFor({ status: "pass" }, true)).toBe(0);
    expect(exitCodeFor({ status: "fail" }, true)).toBe(1);
    expect(exitCodeFor({ status: "fail" }, false)).toBe(1);
    expect(exitCodeFor({ status: "pass" }, false)).toBe(3);
    expect(exitCodeFor({ status: "unknown" }, true)).toBe(3);
  });
});

describe("describeVerdict: the one wording of a verdict", () => {
  it("says incomplete, never pass, whenever the exit code is 3", () => {
    expect(describeVerdict({ status: "pass", gated: true }, false)).toEqual({
      headline: "incomplete",
      reason: "some slots are not judged",
    });
    expect(describeVerdict({ status: "unknown", gated: true }, true)).toEqual({
      headline: "incomplete",
      reason: "unresolved scores or gates keep it from being decided",
    });
    // An unjudged run of controls only is incomplete too: nothing gated is said only of a finished run.
    expect(describeVerdict({ status: "pass", gated: false }, false).headline).toBe("incomplete");
  });

  it("says fail when the exit code is 1, and why it is final on an incomplete run", () => {
    expect(describeVerdict({ status: "fail", gated: true }, true)).toEqual({ headline: "fail", reason: null });
    expect(describeVerdict({ status: "fail", gated: true }, false).reason).toMatch(/^some slots are not judged/);
  });

  it("says that nothing was gated for a pass over nothing (exit 0), and pass otherwise", () => {
    const nothing = describeVerdict({ status: "pass", gated: false }, true);
    expect(nothing.headline).toBe("nothing gated");
    expect(formatVerdictWords(nothing)).toBe(
      "nothing gated (no real model's criterion, gate or baseline cell was there to check; controls never enter the verdict)",
    );
    expect(exitCodeFor({ status: "pass" }, true)).toBe(0);
    expect(formatVerdictWords(describeVerdict({ status: "pass", gated: true }, true))).toBe("pass");
  });
});
