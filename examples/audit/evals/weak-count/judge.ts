// Deliberately weak: it checks only that the file the prompt names was written, not what it holds. `openeval audit`
// flags it: writing error-count.txt from the prompt alone (control/attack-prompt-output) earns full credit.
import type { JudgeContext } from "openeval";

export const criteria = { wrote_count: "error-count.txt exists" };

export default ({ workspace }: JudgeContext) => ({
  scores: { wrote_count: workspace.files().some((file) => file.path === "error-count.txt") },
});
