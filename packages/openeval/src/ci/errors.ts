// Errors of posting the pull-request comment, each with a stable code and a message that says what to set. None
// ever holds the token: API answers are shown with it masked (maskToken), the environment by variable name only.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  environmentInvalid: {
    code: "OE_CI_ENVIRONMENT",
    message: ({ problems }: { problems: string[] }) =>
      `openeval ci comment cannot post: ${problems.map((problem) => `\n  ${problem}`).join("")}`,
  },
  pullRequestUnknown: {
    code: "OE_CI_PULL_REQUEST",
    message: ({ why }: { why: string }) =>
      `No pull request to comment on: ${why}. Run it on a pull_request event, or pass --pr <number>`,
  },
  bodyMissing: {
    code: "OE_CI_COMMENT_BODY",
    message: ({ source, why }: { source: string; why: string }) =>
      `The comment's body (${source}) ${why}; pass --body-file <file> holding the Markdown, e.g. the output of \`openeval report --markdown --against-baseline\``,
  },
  apiRefused: {
    code: "OE_CI_GITHUB_API",
    message: ({ request, status, answer, hint }: { request: string; status: number; answer: string; hint: string }) =>
      `GitHub answered ${request} with ${status}${answer ? `: ${answer}` : ""}; ${hint}`,
  },
  apiUnexpected: {
    code: "OE_CI_GITHUB_API",
    message: ({ request, problems }: { request: string; problems: string[] }) =>
      `GitHub's answer to ${request} is not what the issue comments API answers (${problems.join("; ")}); check that GITHUB_API_URL is GitHub's API`,
  },
  apiUnreachable: {
    code: "OE_CI_GITHUB_API",
    message: ({ request, reason }: { request: string; reason: string }) =>
      `${request} failed: ${reason}; check GITHUB_API_URL (default https://api.github.com) and the network`,
  },
} as const satisfies Record<string, Situation>;

type CiSituation = keyof typeof SITUATIONS;

/** The pull-request comment could not be posted: what to set or grant says the message. */
export class PullRequestCommentError<S extends CiSituation = CiSituation> extends SituationError<typeof SITUATIONS, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
