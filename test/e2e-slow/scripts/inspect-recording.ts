// A user's script: open one recording with readRecording() and print what a judge could see, as JSON.
import { readRecording } from "openeval";

const [runDirectory, evalRunId] = process.argv.slice(2);
await using context = await readRecording(runDirectory!, evalRunId!);
const sessions = await context.recording.sessions();
const messages = await context.recording.messages();
const database = await context.native.database();
const sdk = await context.native.sdk();
const viaSdk = await sdk.session.messages({ sessionID: sessions[0]!.id, directory: sessions[0]!.directory });
const schema = (await context.native.schema()) as { openapi?: string };
console.log(
  JSON.stringify({
    response: context.response.text,
    model: context.run?.slot.model,
    tools: context.recording
      .tools()
      .map((tool) => ({ name: tool.name, input: tool.input, output: tool.content, status: tool.status })),
    diff: (await context.workspace.patches()).map((file) => ({
      path: file.path,
      status: file.status,
      patch: file.patch,
    })),
    sessions: sessions.map((session) => session.id),
    messages: messages.map((message) => ({ role: message.info.role, parts: message.parts.map((part) => part.type) })),
    sessionTitles: database.query("SELECT title FROM session").all(),
    events: context.recording.events({ type: "message." }).length,
    export: typeof (await context.recording.export()) === "object",
    metrics: context.metrics,
    sdkMessages: viaSdk.data?.length ?? null,
    openapi: schema.openapi ?? null,
  }),
);
