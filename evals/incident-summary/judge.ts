import type { JudgeContext } from "openeval";

export const criteria = { json_shape: "Answer is a JSON object with a summary string" };

export default ({ response }: JudgeContext) => {
  try {
    const value = JSON.parse(response.text);
    return { scores: { json_shape: typeof value?.summary === "string" } };
  } catch {
    return { scores: { json_shape: false } };
  }
};
