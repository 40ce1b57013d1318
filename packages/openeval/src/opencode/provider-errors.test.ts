import { describe, expect, it } from "vitest";
import { readContextOverflow } from "./provider-errors.ts";

const apiError = (message: string, body: unknown = { error: { message } }) => ({
  name: "APIError",
  data: { message, statusCode: 400, responseBody: JSON.stringify(body) },
});

describe("readContextOverflow", () => {
  it.each([
    [
      "OpenAI",
      apiError(
        "This model's maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens. Please reduce the length of the messages.",
        {
          error: { message: "…", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" },
        },
      ),
    ],
    [
      "vLLM",
      apiError(
        "This model's maximum context length is 2048 tokens. However, you requested 6230 tokens (5206 in the messages, 1024 in the completion).",
        {
          object: "error",
          message: "…",
          type: "BadRequestError",
          code: 400,
        },
      ),
    ],
    [
      "Anthropic",
      apiError("prompt is too long: 6230 tokens > 2048 maximum", {
        type: "error",
        error: { type: "invalid_request_error", message: "prompt is too long: 6230 tokens > 2048 maximum" },
      }),
    ],
    [
      "llama.cpp",
      apiError("the request exceeds the available context size, try increasing it", {
        error: {
          code: 400,
          message: "the request exceeds the available context size, try increasing it",
          type: "exceed_context_size_error",
          n_prompt_tokens: 6230,
          n_ctx: 2048,
        },
      }),
    ],
    [
      "Ollama",
      apiError("input length (6230) exceeds the context length (2048)", {
        error: { message: "input length (6230) exceeds the context length (2048)", type: "api_error" },
      }),
    ],
    [
      "OpenCode's own name for it",
      {
        name: "ContextOverflowError",
        data: {
          message:
            "This model's maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens.",
        },
      },
    ],
  ])("reads %s's rejection with both numbers", (_provider, error) => {
    expect(readContextOverflow(error)).toMatchObject({ limit: 2048, requested: 6230 });
  });

  it("recognizes an overflow that gives no numbers, and keeps the provider's words", () => {
    expect(readContextOverflow(apiError("the input length exceeds the context length"))).toEqual({
      limit: null,
      requested: null,
      message: "the input length exceeds the context length",
    });
  });

  it("is null for other errors", () => {
    expect(readContextOverflow(apiError("Rate limit reached for requests"))).toBeNull();
    expect(readContextOverflow({ name: "UnknownError", data: { message: "Unexpected server error" } })).toBeNull();
    expect(readContextOverflow("a string")).toBeNull();
  });
});
