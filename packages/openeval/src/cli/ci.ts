// `openeval ci comment`: the pull request's one openeval comment, posted or updated in place (ci/), with the body
// from --body-file or stdin. The token is read from the environment only, never from a flag: flags show in logs.
import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { postPullRequestComment, PullRequestCommentError } from "../ci/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const ciCommand = defineCommand("ci", {
  async run(flags, positionals) {
    if (positionals.length !== 1 || positionals[0] !== "comment")
      throw new UsageError("ciAction", { given: positionals });
    const bodyFile = flags["body-file"] as string | undefined;
    const pullRequest = parsePullRequest(flags.pr as string | undefined);
    const posted = await postPullRequestComment({
      environment: process.env,
      body: await readBody(bodyFile),
      ...(pullRequest === undefined ? {} : { pullRequest }),
      ...(flags.name ? { name: flags.name as string } : {}),
    });
    console.log(
      flags.json
        ? JSON.stringify(posted)
        : `${posted.action === "created" ? "Posted" : "Updated"} the openeval comment on pull request #${posted.pullRequest}: ${posted.url ?? `comment ${posted.id}`}`,
    );
    return EXIT.pass;
  },
});

function parsePullRequest(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError("valueInvalid", { flag: "pr", takes: "a pull request's number", got: value });
  return Number(value);
}

async function readBody(file: string | undefined): Promise<string> {
  const source = file ?? "stdin";
  // A terminal on stdin would wait for typing that a CI job never does.
  if (file === undefined && process.stdin.isTTY)
    throw new PullRequestCommentError("bodyMissing", { source, why: "is a terminal, not the Markdown" });
  let body: string;
  try {
    body = file === undefined ? await text(process.stdin) : await readFile(file, "utf8");
  } catch (error) {
    throw new PullRequestCommentError("bodyMissing", { source, why: `cannot be read (${(error as Error).message})` });
  }
  if (body.trim() === "") throw new PullRequestCommentError("bodyMissing", { source, why: "is empty" });
  return body;
}
