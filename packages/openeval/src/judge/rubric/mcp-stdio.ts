// A minimal MCP server over stdio: newline-delimited JSON-RPC 2.0 with initialize, ping, tools/list and tools/call.
// Written by hand so the judge's tool server needs no SDK. stdout carries the protocol only.
import { createInterface } from "node:readline";

export interface ToolAnswer {
  text: string;
  /** Shown to the model as the tool's error (OpenCode adds no prefix): it should fix its call and retry. */
  isError: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  inputSchema: Record<string, unknown>;
  call(args: unknown): Promise<ToolAnswer>;
}

export interface McpServerOptions {
  name: string;
  version: string;
  /** Sent at initialize; OpenCode appends it to the system prompt inside `<mcp_instructions>`. */
  instructions?: string;
  tools: McpTool[];
  input?: NodeJS.ReadableStream;
  write?: (line: string) => void;
  /** Called once stdin has closed and every pending request is answered. */
  onClose?: () => Promise<void> | void;
}

const FALLBACK_PROTOCOL_VERSION = "2025-06-18";
const METHOD_NOT_FOUND = -32601;
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/**
 * Serves the tools until stdin closes. Requests are answered one at a time, in order, so tool side effects
 * (the submission) never race.
 * @example
 * serveMcpStdio({ name: "judge", version: "1", tools: [echoTool], onClose: () => process.exit(0) });
 */
export function serveMcpStdio(options: McpServerOptions): void {
  const write = options.write ?? ((line: string) => void process.stdout.write(line));
  const send = (message: Record<string, unknown>) => write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const lines = createInterface({ input: options.input ?? process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let queue: Promise<void> = Promise.resolve();
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    queue = queue.then(() => handleLine(line, options, send)).catch(() => {});
  });
  lines.on("close", () => {
    void queue.then(() => options.onClose?.());
  });
}

async function handleLine(
  line: string,
  options: McpServerOptions,
  send: (message: Record<string, unknown>) => void,
): Promise<void> {
  let message: JsonRpcMessage;
  try {
    message = JSON.parse(line) as JsonRpcMessage;
  } catch {
    send({ id: null, error: { code: PARSE_ERROR, message: "Parse error: each line must be one JSON-RPC message" } });
    return;
  }
  if (typeof message !== "object" || message === null || typeof message.method !== "string") {
    // A response to a request we never sent, or garbage: nothing to answer unless it carries an id.
    if (message && typeof message === "object" && "id" in message && !("result" in message || "error" in message)) {
      send({ id: message.id ?? null, error: { code: INVALID_REQUEST, message: "Invalid request: no method" } });
    }
    return;
  }
  const isNotification = !("id" in message);
  const result = await dispatch(message.method, message.params, options);
  if (isNotification) return;
  if (result === undefined) {
    send({ id: message.id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${message.method}` } });
    return;
  }
  send({ id: message.id, result });
}

/** undefined: an unknown method. */
async function dispatch(
  method: string,
  params: unknown,
  options: McpServerOptions,
): Promise<Record<string, unknown> | undefined> {
  const input = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
  switch (method) {
    case "initialize":
      return {
        // The client only offers versions it supports; echoing it keeps us compatible with every SDK release.
        protocolVersion: typeof input.protocolVersion === "string" ? input.protocolVersion : FALLBACK_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: options.name, version: options.version },
        ...(options.instructions ? { instructions: options.instructions } : {}),
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: options.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
    case "tools/call":
      return callTool(options.tools, input);
    // No resources or prompts: empty lists keep a client that asks anyway from treating us as broken.
    case "resources/list":
      return { resources: [] };
    case "resources/templates/list":
      return { resourceTemplates: [] };
    case "prompts/list":
      return { prompts: [] };
    default:
      return method.startsWith("notifications/") ? {} : undefined;
  }
}

async function callTool(tools: McpTool[], params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const tool = tools.find((candidate) => candidate.name === params.name);
  const answer: ToolAnswer = tool
    ? await tool.call(params.arguments ?? {}).catch((error: unknown) => ({
        text: `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        isError: true,
      }))
    : {
        text: `Unknown tool ${JSON.stringify(params.name)}; the tools are ${tools.map((item) => item.name).join(", ")}`,
        isError: true,
      };
  return { content: [{ type: "text", text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
}
