// CI integration: the pull request's one openeval comment, posted through GitHub's API and updated on every push.
export { PullRequestCommentError } from "./errors.ts";
export { maskToken } from "./github-api.ts";
export {
  commentMarker,
  postPullRequestComment,
  readGitHubEnvironment,
  type PostCommentOptions,
  type PostedComment,
} from "./pull-request-comment.ts";
export { GITHUB_API_URL } from "./schema.ts";
