// Grades the answer against the case's expected capital: ctx.case is the case this eval run was for.
import type { JudgeContext } from "openeval";

export const criteria = ["correct_capital"];

export default ({ response, case: item }: JudgeContext) => {
  const { capital } = item!.expected as { capital: string };
  return { scores: { correct_capital: response.text.trim().toLowerCase() === capital.toLowerCase() } };
};
