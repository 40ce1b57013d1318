// Checks the answer against the input the candidate was given: the count is derived from the starting server.log
// (which the candidate cannot rewrite to match), and the prompt does not state it. `openeval audit` clears it.
import type { JudgeContext } from "openeval";

export const criteria = { correct_count: "error-count.txt holds the number of ERROR lines of server.log, alone" };

export default async ({ workspace }: JudgeContext) => {
  const log = await workspace.text("server.log", "initial");
  const expected = log.split("\n").filter((line) => line.endsWith(" ERROR")).length;
  const written = workspace.files().some((file) => file.path === "error-count.txt")
    ? (await workspace.text("error-count.txt")).trim()
    : null;
  return { scores: { correct_count: written === String(expected) }, expected, written };
};
