import { expect, test } from "vitest";
import { readLines } from "./read-lines.ts";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

test("lines split across chunks (and inside a multi-byte character) arrive whole, the last unterminated one too", async () => {
  const bytes = new TextEncoder().encode('{"a":"é"}\n{"b":2}\ntail');
  const cut = bytes.indexOf(0xa9); // second byte of "é"
  const lines: string[] = [];
  await readLines(streamOf([bytes.slice(0, cut), bytes.slice(cut, cut + 5), bytes.slice(cut + 5)]), (line) =>
    lines.push(line),
  );
  expect(lines).toEqual(['{"a":"é"}', '{"b":2}', "tail"]);
});
