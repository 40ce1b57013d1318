// Journey: the comment step of action.yml (scripts/action-comment.sh, the file the action runs) on two pushes of a
// pull request, with a fake GitHub Actions environment and a stub of the issue comments API on 127.0.0.1. The pull
// request ends with exactly one openeval comment, updated by the second push to show its regression against
// baseline.json, and the token shows in no output. The runs are recorded ones (no model session).
import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli, runCommand, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { startGitHubCommentsStub, type GitHubCommentsStub } from "../helpers/github-comments-stub.ts";
import { recordedBenchmark, RUN_ID } from "../helpers/recorded-benchmark.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "action-comment.sh");
const TOKEN = "ghs_e2eSecretTokenValue9876543210";
const REPOSITORY = "octo-org/app";

let stub: GitHubCommentsStub;
let event: string;

beforeAll(async () => {
  stub = startGitHubCommentsStub({
    repository: REPOSITORY,
    pullRequest: 42,
    token: TOKEN,
    earlier: ["Looks good to me", "Please rebase"],
  });
  event = join(await makeTempDir(), "event.json");
  await writeFile(event, JSON.stringify({ action: "synchronize", number: 42, pull_request: { number: 42 } }));
});

afterAll(async () => {
  await stub.stop();
});

/** The action's comment step as GitHub Actions runs it: bash, the GITHUB_* variables, the inputs as env. */
function commentStep(benchmark: string, token = TOKEN): Promise<CliResult> {
  return runCommand(["bash", SCRIPT], {
    cwd: benchmark,
    env: {
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_EVENT_PATH: event,
      GITHUB_API_URL: stub.url,
      GITHUB_TOKEN: token,
      OPENEVAL_BENCHMARK: ".",
      OPENEVAL_COMMAND: `node ${BIN}`,
    },
  });
}

const openevalComments = () => stub.comments.filter((comment) => comment.body.startsWith("<!-- openeval -->"));

describe("the action's comment step", () => {
  it("is the script action.yml runs", async () => {
    const action = Bun.YAML.parse(await Bun.file(join(ROOT, "action.yml")).text()) as {
      runs: { steps: { name?: string; run?: string; uses?: string }[] };
    };
    const step = action.runs.steps.find((candidate) => candidate.name === "Comment on the pull request")!;
    expect(step.run).toContain('bash "$GITHUB_ACTION_PATH/scripts/action-comment.sh"');
    // Only setup and artifact upload are third-party; the comment is openeval's own.
    expect(action.runs.steps.flatMap((candidate) => candidate.uses ?? [])).toEqual([
      "actions/setup-node@v4",
      "actions/upload-artifact@v4",
    ]);
  });

  it("run on two pushes, leaves one comment, updated with the second push's regression; the token is never printed", async () => {
    // Push 1: the run that became the baseline.
    const accepted = await recordedBenchmark(["p/m", "control/negative"], (model) => (model === "p/m" ? 1 : 0));
    const set = await runCli(["baseline", "set", RUN_ID, "--benchmark", accepted]);
    expect(set.exitCode, set.stderr).toBe(0);
    const first = await commentStep(accepted);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Posted the openeval comment on pull request #42: https:\/\/github\.com\/octo-org\/app\/pull\/42#issuecomment-\d+\n$/,
    );
    expect(openevalComments()).toHaveLength(1);
    const posted = openevalComments()[0]!;
    expect(posted.body).toContain("## ✅ openeval: pass");
    expect(posted.body).toContain("### Against baseline");
    expect(posted.body).toContain("No eval changed.");

    // Push 2: p/m now fails every slot. The verdict fails, and the comment is updated all the same.
    const regressed = await recordedBenchmark(["p/m", "control/negative"], () => 0);
    await copyFile(join(accepted, "baseline.json"), join(regressed, "baseline.json"));
    const second = await commentStep(regressed);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(`Updated the openeval comment on pull request #42: ${posted.html_url}\n`);
    expect(openevalComments()).toHaveLength(1);
    expect(stub.comments.map((comment) => comment.id)).toEqual([stub.comments[0]!.id, stub.comments[1]!.id, posted.id]);
    const updated = openevalComments()[0]!.body;
    expect(updated).toContain("## ❌ openeval: fail");
    expect(updated).toMatch(/^\| p\/m \| 100\.0 \| 0\.0 \| −100\.0.* \| 1 \| 0 \|$/m);
    expect(updated).toContain("| p/m | `answer` | 100.0 | 0.0 | −100.0 | 🔻 regression |");
    expect(stub.requests.filter((request) => request.method !== "GET").map((request) => request.method)).toEqual([
      "POST",
      "PATCH",
    ]);

    for (const output of [first, second]) expect(output.stdout + output.stderr).not.toContain(TOKEN);
  });

  it("fails, saying what to set, when GitHub refuses the token, and prints neither token", async () => {
    const benchmark = await recordedBenchmark(["p/m"], () => 1);
    const refused = await commentStep(benchmark, "ghs_wrongTokenValue");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("error OE_CI_GITHUB_API: GitHub answered GET");
    expect(refused.stderr).toContain("with 401: Bad credentials; GITHUB_TOKEN is not a valid token");
    expect(refused.stdout + refused.stderr).not.toContain("ghs_wrongTokenValue");
    expect(refused.stdout + refused.stderr).not.toContain(TOKEN);
  });

  it("without a recorded run, posts that there is no summary, so that an earlier push's results do not stand", async () => {
    const empty = await makeTempDir();
    const result = await commentStep(empty);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(openevalComments()).toHaveLength(1);
    expect(openevalComments()[0]!.body).toMatch(
      /^<!-- openeval -->\n## ⚠️ openeval: no summary for this push\n\n```\nerror OE_/,
    );
  });

  it("openeval ci refuses a wrong action, a --pr that is no number, and an empty body, saying what to pass", async () => {
    const env = { GITHUB_REPOSITORY: REPOSITORY, GITHUB_API_URL: stub.url, GITHUB_TOKEN: TOKEN };
    const action = await runCli(["ci", "post"], { env });
    expect([action.exitCode, action.stderr]).toEqual([
      2,
      "error OE_USAGE: ci takes one action, comment (e.g. `openeval ci comment --body-file summary.md`); got post\n",
    ]);
    const body = join(await makeTempDir(), "body.md");
    await writeFile(body, "  \n");
    const pr = await runCli(["ci", "comment", "--pr", "seven", "--body-file", body], { env });
    expect([pr.exitCode, pr.stderr]).toEqual([2, `error OE_USAGE: --pr takes a pull request's number; got "seven"\n`]);
    const empty = await runCli(["ci", "comment", "--pr", "42", "--body-file", body, "--json"], { env });
    expect(empty.exitCode).toBe(2);
    expect(JSON.parse(empty.stdout).error).toEqual({
      code: "OE_CI_COMMENT_BODY",
      message: `The comment's body (${body}) is empty; pass --body-file <file> holding the Markdown, e.g. the output of \`openeval report --markdown --against-baseline\``,
    });
    const missing = await runCli(["ci", "comment", "--pr", "42", "--body-file", join(body, "..", "none.md")], { env });
    expect(missing.stderr).toMatch(
      /^error OE_CI_COMMENT_BODY: The comment's body \(.*none\.md\) cannot be read \(ENOENT/,
    );
  });
});
