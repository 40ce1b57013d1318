import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { findKnownSecrets, findSecretsIn, isCredentialName } from "./known-secrets.ts";

describe("findKnownSecrets", () => {
  test("every auth.json entry's values and every credential-shaped variable, whatever the provider", async () => {
    const directory = await makeTempDir();
    const authFile = join(directory, "auth.json");
    await writeFile(
      authFile,
      JSON.stringify({
        anthropic: { type: "api", key: "sk-ant-auth-0123456789" },
        openai: { type: "oauth", access: "oa-access-0123456789", refresh: "oa-refresh-0123456789", expires: 99 },
        "my-gateway": { type: "wellknown", key: "gw-key-0123456789", token: "gw-token-0123456789" },
      }),
    );
    const secrets = await findKnownSecrets(
      {
        DATABASE_PASSWORD: "hunter2-hunter2",
        MY_SERVICE_TOKEN: "svc-token-0123456789",
        STRIPE_SECRET_KEY: "stripe-secret-0123456789",
        PATH: "/usr/bin:/bin:/usr/local/bin",
        SHORT_TOKEN: "abc",
      },
      authFile,
    );
    expect(secrets.map((secret) => secret.value).sort()).toEqual(
      [
        "hunter2-hunter2",
        "svc-token-0123456789",
        "stripe-secret-0123456789",
        "sk-ant-auth-0123456789",
        "oa-access-0123456789",
        "oa-refresh-0123456789",
        "gw-key-0123456789",
        "gw-token-0123456789",
      ].sort(),
    );
    expect(secrets.find((secret) => secret.value === "oa-refresh-0123456789")?.source).toBe("auth.json openai.refresh");
    expect(secrets.find((secret) => secret.value === "hunter2-hunter2")?.source).toBe("env DATABASE_PASSWORD");
  });

  test("keys written into benchmark.ts provider config (options.apiKey, an Authorization header), not its URLs or names", async () => {
    const providers = {
      local: {
        npm: "@ai-sdk/openai-compatible",
        options: {
          baseURL: "http://127.0.0.1:8080/v1",
          apiKey: "local-provider-key-0123",
          headers: { Authorization: "Bearer header-token-0123" },
        },
        models: { m: { name: "M" } },
      },
    };
    const secrets = await findKnownSecrets({}, join(await makeTempDir(), "missing-auth.json"), providers);
    expect(secrets).toEqual([
      { value: "local-provider-key-0123", source: "candidate.providers.local.options.apiKey" },
      { value: "Bearer header-token-0123", source: "candidate.providers.local.options.headers.Authorization" },
      { value: "header-token-0123", source: "candidate.providers.local.options.headers.Authorization (token)" },
    ]);
  });

  test("an Authorization value's token is a secret of its own, whatever the header or variable is called", async () => {
    const providers = {
      gw: {
        options: { headers: { "Proxy-Authorization": "Basic dXNlcjpwYXNzd29yZA==", "X-Title": "my benchmark title" } },
      },
    };
    const secrets = await findKnownSecrets(
      { AUTH_HEADER: "token ghp-0123456789abcdef", GREETING: "Bearer of good news" },
      join(await makeTempDir(), "missing-auth.json"),
      providers,
    );
    expect(secrets.map((secret) => secret.value)).toEqual([
      "token ghp-0123456789abcdef",
      "Basic dXNlcjpwYXNzd29yZA==",
      "ghp-0123456789abcdef",
      "dXNlcjpwYXNzd29yZA==",
    ]);
  });

  test("names: keys, tokens, secrets and passwords are credentials; paths and settings are not", () => {
    for (const name of [
      "OPENAI_API_KEY",
      "AWS_ACCESS_KEY_ID",
      "GH_TOKEN",
      "X_SECRET_Y",
      "PGPASSWORD",
      "AUTH_HEADER",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "Proxy-Authorization",
      "authorization",
    ])
      expect(isCredentialName(name), name).toBe(true);
    for (const name of ["PATH", "HOME", "AWS_REGION", "KEYBOARD_LAYOUT", "TERM"])
      expect(isCredentialName(name), name).toBe(false);
  });

  test("findSecretsIn names the secrets some bytes hold, as redaction finds them, and only those", () => {
    const secrets = [
      { value: "svc-token-0123456789", source: "env MY_SERVICE_TOKEN" },
      { value: 'quote"d-secret-0123', source: "auth.json x.key" },
    ];
    expect(findSecretsIn(new TextEncoder().encode("token=svc-token-0123456789\n"), secrets)).toEqual([secrets[0]]);
    expect(findSecretsIn(JSON.stringify({ key: 'quote"d-secret-0123' }), secrets)).toEqual([secrets[1]]);
    expect(findSecretsIn(new Uint8Array([0, 255, 1]), secrets)).toEqual([]);
    expect(findSecretsIn("svc-token-012345678 (one character short)", secrets)).toEqual([]);
  });
});
