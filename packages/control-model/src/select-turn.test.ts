import { describe, expect, it } from "vitest";
import { countStep, selectTurn } from "./select-turn.ts";

const roles = (...list: string[]) => list.map((role) => ({ role }));

describe("countStep", () => {
  it("counts assistant messages after the last user message", () => {
    expect(countStep(roles("system", "user"))).toBe(0);
    expect(countStep(roles("system", "user", "assistant", "tool", "assistant", "tool"))).toBe(2);
    expect(countStep(roles("system", "user", "assistant", "tool", "user", "assistant", "tool"))).toBe(1);
  });

  it("counts every assistant message when there is no user message", () => {
    expect(countStep(roles("system", "assistant", "assistant"))).toBe(2);
  });
});

describe("selectTurn", () => {
  const control = { turns: [{ text: "first" }, { text: "last" }] };

  it("plays turns[step] and repeats the last turn past the end", () => {
    expect(selectTurn(control, 0).text).toBe("first");
    expect(selectTurn(control, 1).text).toBe("last");
    expect(selectTurn(control, 7).text).toBe("last");
  });
});
