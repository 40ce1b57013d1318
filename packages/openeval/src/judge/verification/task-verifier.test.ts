import { describe, expect, it } from "vitest";
import { rewardsOf } from "./task-verifier.ts";

describe("a task verifier's reward file", () => {
  it("reads reward.txt as the criterion reward, and reward.json as one criterion per key", () => {
    expect(rewardsOf({ name: "reward.txt", text: "1\n" }, "v_1")).toEqual({
      kind: "rewards",
      rewards: { reward: 1 },
      id: "v_1",
    });
    expect(rewardsOf({ name: "reward.txt", text: " 0.25 " }, "v_1")).toMatchObject({ rewards: { reward: 0.25 } });
    expect(rewardsOf({ name: "reward.json", text: '{"tests_passed": 0.5, "style": 1}' }, "v_1")).toMatchObject({
      rewards: { tests_passed: 0.5, style: 1 },
    });
  });

  it("is the verifier's error, naming the value, when a reward is outside [0, 1], not a number or under a bad key", () => {
    const problem = (name: string, text: string) => {
      const outcome = rewardsOf({ name, text }, "v_1");
      expect(outcome.kind).toBe("invalid");
      return outcome.kind === "invalid" ? outcome.problem : "";
    };
    expect(problem("reward.txt", "1.5")).toBe(
      'the verifier\'s /logs/verifier/reward.txt gives "reward" 1.5, outside [0, 1]',
    );
    expect(problem("reward.txt", "passed")).toBe(
      'the verifier\'s /logs/verifier/reward.txt holds "passed", not a number',
    );
    expect(problem("reward.txt", "")).toBe('the verifier\'s /logs/verifier/reward.txt holds "", not a number');
    expect(problem("reward.json", '{"a": -1}')).toBe(
      'the verifier\'s /logs/verifier/reward.json gives "a" -1, outside [0, 1]',
    );
    expect(problem("reward.json", '{"a": "1"}')).toBe(
      'the verifier\'s /logs/verifier/reward.json gives "a" "1", not a number',
    );
    expect(problem("reward.json", '{"Bad Key": 1}')).toBe(
      'the verifier\'s /logs/verifier/reward.json names "Bad Key", which is not a criterion id (a lowercase letter, then lowercase letters, digits and _)',
    );
    expect(problem("reward.json", "[1]")).toBe(
      "the verifier's /logs/verifier/reward.json is not an object of criterion → number",
    );
    expect(problem("reward.json", "{")).toBe("the verifier's /logs/verifier/reward.json is not valid JSON");
  });
});
