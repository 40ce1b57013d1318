import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { selectCredentials } from "./credentials.ts";

const ANTHROPIC = "sk-ant-planted-0123456789abcdef";
const OPENAI = "sk-planted-openai-0123456789abcdef";
const environment = {
  ANTHROPIC_API_KEY: ANTHROPIC,
  OPENAI_API_KEY: OPENAI,
  GEMINI_API_KEY: "gemini-planted-0123456789",
  AWS_REGION: "eu-central-1",
  AWS_SECRET_ACCESS_KEY: "aws-secret-planted-0123456789",
  HOME: "/nonexistent-home",
};

let dir: string;
let authFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openeval-creds-"));
  authFile = join(dir, "auth.json");
  await writeFile(
    authFile,
    JSON.stringify({
      anthropic: { type: "api", key: "sk-ant-from-auth-file-0123456789" },
      openai: {
        type: "oauth",
        access: "openai-access-token-0123456789",
        refresh: "openai-refresh-0123456789",
        expires: 1,
      },
    }),
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("selectCredentials", () => {
  test("anthropic gets only the anthropic key and its own auth entry", async () => {
    const creds = await selectCredentials({ model: "anthropic/x", environment, authFile });
    expect(creds.env).toEqual({ ANTHROPIC_API_KEY: ANTHROPIC });
    expect(creds.auth).toEqual({ type: "api", key: "sk-ant-from-auth-file-0123456789" });
    expect(creds.secrets).toEqual(expect.arrayContaining([ANTHROPIC, "sk-ant-from-auth-file-0123456789"]));
    // Handed over: only its own. Redacted: every secret the runner can see.
    expect(JSON.stringify({ env: creds.env, auth: creds.auth })).not.toContain(OPENAI);
    expect(JSON.stringify({ env: creds.env, auth: creds.auth })).not.toContain("openai-access-token");
    expect(creds.secrets).toEqual(
      expect.arrayContaining([OPENAI, "openai-access-token-0123456789", "aws-secret-planted-0123456789"]),
    );
  });

  test("an oauth entry's tokens are all secrets; the type field is not", async () => {
    const creds = await selectCredentials({ model: "openai/gpt-x#high", environment, authFile });
    expect(creds.env).toEqual({ OPENAI_API_KEY: OPENAI });
    expect(creds.secrets).toEqual(
      expect.arrayContaining([OPENAI, "openai-access-token-0123456789", "openai-refresh-0123456789"]),
    );
    expect(creds.secrets).not.toContain("oauth");
    expect(JSON.stringify({ env: creds.env, auth: creds.auth })).not.toContain(ANTHROPIC);
  });

  test("the control provider gets nothing, and still redacts every known secret", async () => {
    const creds = await selectCredentials({ model: "control/x", environment, authFile });
    expect({ env: creds.env, auth: creds.auth }).toEqual({ env: {}, auth: null });
    expect(creds.secrets.sort()).toEqual(
      [
        ANTHROPIC,
        OPENAI,
        "gemini-planted-0123456789",
        "aws-secret-planted-0123456789",
        "sk-ant-from-auth-file-0123456789",
        "openai-access-token-0123456789",
        "openai-refresh-0123456789",
      ].sort(),
    );
  });

  test("settings pass but are not treated as secrets", async () => {
    const creds = await selectCredentials({ model: "amazon-bedrock/some-model", environment, authFile });
    expect(creds.env).toEqual({ AWS_REGION: "eu-central-1", AWS_SECRET_ACCESS_KEY: "aws-secret-planted-0123456789" });
    expect(creds.secrets).toContain("aws-secret-planted-0123456789");
    expect(creds.secrets).not.toContain("eu-central-1");
  });

  test("an unknown provider gets no environment keys; a missing auth file is no entry", async () => {
    const creds = await selectCredentials({
      model: "someproxy/model",
      environment: { HOME: "/nonexistent-home" },
      authFile: join(dir, "missing.json"),
    });
    expect(creds).toEqual({ env: {}, auth: null, secrets: [] });
  });

  test("the default auth file is $XDG_DATA_HOME/opencode/auth.json", async () => {
    await mkdir(join(dir, "opencode"), { recursive: true });
    await writeFile(
      join(dir, "opencode", "auth.json"),
      JSON.stringify({ groq: { type: "api", key: "gsk-from-xdg-0123456789" } }),
    );
    const creds = await selectCredentials({ model: "groq/llama", environment: { XDG_DATA_HOME: dir } });
    expect(creds.auth).toEqual({ type: "api", key: "gsk-from-xdg-0123456789" });
  });

  test("the caller's environment object is not mutated", async () => {
    const copy = { ...environment };
    await selectCredentials({ model: "anthropic/x", environment: copy, authFile });
    expect(copy).toEqual(environment);
  });
});
