// A candidate that prints its own key and its custom provider's bearer token in every common encoding (base64 at
// each byte offset, base64url, hex, percent-encoding, reversed) into a tool call, its output, a file and its answer,
// with real OpenCode against a scripted provider on 127.0.0.1: no encoding reaches results/, the viewer API or an export.
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { readDefaultExport, readFiles, readViewerApi, type Published } from "../helpers/published-run.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";

const KEY = "sk-ant-planted-encoded-4e1b7c9d2a60";
// Characters that base64url and URL-encoding change, as in a Basic token.
const TOKEN = "gw+bearer/planted=8a3f5c1e7b92";

/** Each encoding as the candidate prints it, and the part of it that only the secret decides (what must not appear). */
function encodings(name: string, secret: string): { label: string; printed: string; needle: string }[] {
  const percent = [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  const whole = (label: string, printed: string) => ({ label: `${name} ${label}`, printed, needle: printed });
  // `echo "$KEY" | base64` after 0, 1 or 2 other bytes: the first 3 and last 4 characters may mix in a neighbour.
  const base64 = ["", "K", "KE"].flatMap((before) =>
    (["base64", "base64url"] as const).map((encoding) => {
      const printed = Buffer.from(`${before}${secret}\n`).toString(encoding);
      return { label: `${name} ${encoding} at offset ${before.length}`, printed, needle: printed.slice(3, -4) };
    }),
  );
  return [
    ...base64,
    whole("base64 alone", Buffer.from(secret).toString("base64")),
    whole("hex", Buffer.from(secret).toString("hex")),
    whole("HEX", Buffer.from(secret).toString("hex").toUpperCase()),
    whole("encodeURIComponent", encodeURIComponent(secret)),
    whole("percent-encoded", percent),
    whole("PERCENT-ENCODED", percent.toUpperCase()),
    whole("reversed", [...secret].reverse().join("")),
  ];
}

const PLANTED = [
  ...encodings("own key", KEY),
  ...encodings("bearer token", TOKEN),
  ...encodings("bearer header", `Bearer ${TOKEN}`),
];
const quoted = PLANTED.map((item) => `'${item.printed}'`).join(" ");
// The same encodings computed in the sandbox from the key the candidate holds.
const FROM_ENV = [
  `k="$ANTHROPIC_API_KEY"`,
  `{ printf %s "$k" | base64 -w0; echo; echo "$k" | base64; printf 'K%s' "$k" | base64 -w0; echo; printf 'KE%s' "$k" | base64 -w0 | tr '+/' '-_'; echo`,
  `printf %s "$k" | od -An -tx1 | tr -d ' \\n'; echo; printf %s "$k" | od -An -tx1 | tr -d ' \\n' | tr a-f A-F; echo; printf %s "$k" | rev; echo; } | tee from-env.txt`,
].join("; ");

let provider: ControlServer;
let directory: string;
let run: CliResult;
let runDirectory: string;

beforeAll(async () => {
  provider = await startControlServer({
    controls: {
      leak: {
        encoder: {
          turns: [
            {
              tools: [
                {
                  name: "bash",
                  input: { command: `printf '%s\\n' ${quoted} > encoded.txt; cat encoded.txt`, description: "encode" },
                },
              ],
            },
            { tools: [{ name: "bash", input: { command: FROM_ENV, description: "encode" } }] },
            { text: `OK ${PLANTED.map((item) => item.printed).join(" ")}` },
          ],
        },
      },
    },
  });
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["anthropic/encoder"],
  repetitions: 1,
  candidate: {
    timeoutMs: 120_000,
    providers: { anthropic: { npm: "@ai-sdk/openai-compatible",
      options: { baseURL: ${JSON.stringify(provider.baseURL("leak"))}, headers: { Authorization: ${JSON.stringify(`Bearer ${TOKEN}`)} } },
      models: { encoder: { name: "encoder", tool_call: true, limit: { context: 128000, output: 8192 } } } } },
  },
};\n`,
    "evals/encode/prompt.md": "Reply with OK.\n",
    "evals/encode/judge.ts": `export default ({ response }) => ({ scores: { answered: response.text.startsWith("OK") } });\n`,
  });
  run = await runCli(["run", "--benchmark", directory, "--isolation", "process"], {
    env: { ANTHROPIC_API_KEY: KEY },
    timeoutMs: 400_000,
  });
  runDirectory = onlyRunDirectory(directory);
});

afterAll(async () => {
  await provider?.close();
});

function expectNoEncoding(published: Published[]): void {
  for (const { where, content } of published) {
    for (const { label, needle } of PLANTED) expect(content.includes(needle), `${label} in ${where}`).toBe(false);
  }
}

describe("encoded secrets", () => {
  it("the candidate ran and printed them; none is in any file under results/", () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readEvalRuns(runDirectory)[0]).toMatchObject({ state: "completed" });
    const files = readFiles(runDirectory);
    expectNoEncoding(files);
    // It did print them: the redaction is what kept them out.
    expect(files.filter((file) => file.content.includes("[REDACTED]")).length).toBeGreaterThan(2);
  });

  it("the viewer API serves none of them", async () => {
    const responses = await readViewerApi(runDirectory);
    expect(responses.some((response) => response.where.includes("/transcript?"))).toBe(true);
    expectNoEncoding(responses);
  });

  it("a default export carries none of them", async () => {
    expectNoEncoding(await readDefaultExport(runDirectory));
  });
});
