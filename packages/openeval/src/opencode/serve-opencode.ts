// `opencode serve` over a given database, isolated like a run, for read access through the pinned SDK/API.
// Used to open an archived recording's copy: the server is local (127.0.0.1) and killed on close.
import { createOpencodeClient } from "@opencode-ai/sdk/v2";
import { prepareIsolation } from "./isolated-env.ts";
import { resolveOpenCodeBinary } from "./opencode-command.ts";
import { killProcessTree } from "../sandbox/index.ts";

export type OpenCodeClient = ReturnType<typeof createOpencodeClient>;

export interface OpenCodeServer {
  url: string;
  client: OpenCodeClient;
  /** The server's OpenAPI document (`GET /doc`). */
  schema(): Promise<unknown>;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function serveOpenCode(options: {
  scratchDir: string;
  database: string;
  directory?: string;
}): Promise<OpenCodeServer> {
  const isolation = await prepareIsolation(options.scratchDir);
  const child = Bun.spawn([resolveOpenCodeBinary(), "serve", "--port", "0", "--hostname", "127.0.0.1", "--pure"], {
    env: { ...isolation.env, OPENCODE_DB: options.database },
    cwd: options.scratchDir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
  });
  const close = async () => {
    await killProcessTree({ pid: child.pid });
    await child.exited;
  };
  try {
    const url = await readListeningUrl(child.stdout);
    return {
      url,
      client: createOpencodeClient({ baseUrl: url, ...(options.directory ? { directory: options.directory } : {}) }),
      schema: async () => (await fetch(`${url}/doc`)).json(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `--port 0` tries 4096 first, then a free port: the only reliable source is the line it prints. */
async function readListeningUrl(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => reader.cancel(), START_TIMEOUT_MS);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`opencode serve did not report where it listens within ${START_TIMEOUT_MS} ms`);
      text += decoder.decode(value, { stream: true });
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) return match[1]!;
    }
  } finally {
    clearTimeout(deadline);
    reader.releaseLock();
  }
}
