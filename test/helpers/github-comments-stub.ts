// A stub of GitHub's issue comments API on 127.0.0.1 (Bun.serve) for one repository: list (paged as GitHub pages),
// create and update comments, answering 401 to any token but the one it was given. It records each request, so a
// test sees how the comment was found and written, and whether the token was sent where it belongs only.
export interface StubComment {
  id: number;
  body: string;
  html_url: string;
}

export interface StubRequest {
  method: string;
  path: string;
  /** The request's JSON body, if any. */
  body: unknown;
}

export interface GitHubCommentsStub {
  url: string;
  /** The pull request's comments, in order; tests may preload or read them. */
  comments: StubComment[];
  requests: StubRequest[];
  /** Answer every request with this status and GitHub-style message from now on (null: serve again). */
  refuse(answer: { status: number; message: string } | null): void;
  stop(): Promise<void>;
}

export function startGitHubCommentsStub(options: {
  repository: string;
  pullRequest: number;
  token: string;
  /** Bodies of comments others wrote before, oldest first. */
  earlier?: string[];
}): GitHubCommentsStub {
  let nextId = 1000;
  const comment = (body: string): StubComment => {
    nextId += 1;
    return {
      id: nextId,
      body,
      html_url: `https://github.com/${options.repository}/pull/${options.pullRequest}#issuecomment-${nextId}`,
    };
  };
  const comments = (options.earlier ?? []).map(comment);
  const requests: StubRequest[] = [];
  let refusal: { status: number; message: string } | null = null;
  const issue = `/repos/${options.repository}/issues/${options.pullRequest}/comments`;
  const edit = new RegExp(`^/repos/${options.repository}/issues/comments/(\\d+)$`);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.text();
      const body = text ? JSON.parse(text) : undefined;
      requests.push({ method: request.method, path: `${url.pathname}${url.search}`, body });
      if (refusal) return Response.json({ message: refusal.message }, { status: refusal.status });
      if (request.headers.get("authorization") !== `Bearer ${options.token}`)
        return Response.json({ message: "Bad credentials" }, { status: 401 });
      if (url.pathname === issue && request.method === "GET") {
        const perPage = Number(url.searchParams.get("per_page") ?? 30);
        const page = Number(url.searchParams.get("page") ?? 1);
        return Response.json(comments.slice((page - 1) * perPage, page * perPage));
      }
      if (url.pathname === issue && request.method === "POST") {
        const created = comment(body.body);
        comments.push(created);
        return Response.json(created, { status: 201 });
      }
      const id = edit.exec(url.pathname)?.[1];
      const existing = comments.find((candidate) => String(candidate.id) === id);
      if (existing && request.method === "PATCH") {
        existing.body = body.body;
        return Response.json(existing);
      }
      return Response.json({ message: "Not Found" }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    comments,
    requests,
    refuse: (answer) => {
      refusal = answer;
    },
    stop: () => server.stop(true),
  };
}
