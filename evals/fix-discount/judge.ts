// Grades the fix against REFERENCE_FIX.md with the built-in reference-fix scorer: the root cause is the unit of
// discountRate() in rates.js (and receipt.js must follow it); dividing by 100 in cart.js is the proximate fix.
import type { JudgeContext } from "openeval";
import { filesChanged, referenceFix } from "openeval/scorers";

export const criteria = {
  reference_fix: "The change matches the reference fix: rates.js and receipt.js, nothing else (0.6 structural + 0.4 textual)",
  tests_untouched: "Something changed, and no test file did",
};

// A judge runs in its eval folder, so referenceFix reads the REFERENCE_FIX.md beside this file.
export default async (ctx: JudgeContext) => ({
  scores: {
    reference_fix: await referenceFix(ctx),
    tests_untouched: await filesChanged(ctx, { exclude: ["**/*.test.js"] }),
  },
});
