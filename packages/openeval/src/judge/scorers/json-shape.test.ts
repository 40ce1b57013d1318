import { describe, expect, it } from "vitest";
import * as z from "zod";
import { judgeContext } from "./fixtures/context.ts";
import { jsonShape } from "./json-shape.ts";

const Answer = z.object({ total: z.number(), items: z.array(z.string()) });

describe("jsonShape", () => {
  it("passes when the whole response is JSON of the schema's shape", async () => {
    await using ctx = await judgeContext({ response: '{ "total": 2, "items": ["a", "b"] }' });
    expect(jsonShape(ctx, Answer)).toEqual({
      value: true,
      reason: "the JSON in the response matches the schema",
      measurements: { source: "response", issues: [] },
    });
  });

  it("reads the first ```json block of a prose answer", async () => {
    await using ctx = await judgeContext({
      response: 'Here it is:\n\n```json\n{ "total": 1, "items": ["a"] }\n```\n\nAnything else?',
    });
    expect(jsonShape(ctx, Answer)).toMatchObject({ value: true, measurements: { source: "fenced block" } });
  });

  it("fails with the schema's issues as data when the shape is wrong", async () => {
    await using ctx = await judgeContext({ response: '```json\n{ "total": "2", "items": ["a", 3] }\n```' });
    const score = jsonShape(ctx, Answer);
    expect(score.value).toBe(false);
    expect(score.measurements.issues.map((issue) => issue.path)).toEqual(["total", "items[1]"]);
    expect(score.reason).toMatch(/^the JSON in the fenced block does not match the schema: total: .+; items\[1\]: .+/);
  });

  it("fails when there is no JSON at all", async () => {
    await using ctx = await judgeContext({ response: "The total is 2." });
    expect(jsonShape(ctx, Answer)).toMatchObject({
      value: false,
      reason: "the response holds no JSON",
      measurements: { source: null },
    });
  });
});
