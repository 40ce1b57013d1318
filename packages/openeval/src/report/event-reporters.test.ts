// One contract for every event reporter in the map: it takes every event a run emits, people's lines go to stderr
// and scripts' to stdout (never both), each finished candidate is reported with its eval run, and nothing keeps
// running once the run has finished.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  chooseEventReporter,
  createEventReporter,
  EVENT_REPORTER_NAMES,
  type EventReporterName,
  type ReporterOutput,
} from "./event-reporters.ts";
import { EVERY_EVENT } from "./fixtures/runner-events.ts";

function capture(): { output: Required<ReporterOutput>; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    output: {
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
      terminal: { write: (text) => stderr.push(text), columns: 120 },
    },
  };
}

const WRITES_TO: Record<EventReporterName, "stdout" | "stderr"> = { plain: "stderr", tty: "stderr", json: "stdout" };

describe.each(EVENT_REPORTER_NAMES)("the %s event reporter", (name) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes every runner event and reports each finished candidate with its eval run", () => {
    const { output, stdout, stderr } = capture();
    const report = createEventReporter(name, output);
    for (const event of EVERY_EVENT) report(event);
    const written = WRITES_TO[name] === "stdout" ? stdout : stderr;
    expect(written.join("\n")).toContain("eval_1");
  });

  it("writes to one stream only: stdout for scripts, or stderr for people", () => {
    const { output, stdout, stderr } = capture();
    const report = createEventReporter(name, output);
    for (const event of EVERY_EVENT) report(event);
    const [used, unused] = WRITES_TO[name] === "stdout" ? [stdout, stderr] : [stderr, stdout];
    expect(used.length).toBeGreaterThan(0);
    expect(unused).toEqual([]);
  });

  it("leaves no timer running once the run has finished", () => {
    vi.useFakeTimers();
    const report = createEventReporter(name, capture().output);
    for (const event of EVERY_EVENT) report(event);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("choosing an event reporter", () => {
  it("gives --json its JSON lines, a terminal the live status line, and anything else plain lines", () => {
    expect(chooseEventReporter({ json: true, terminal: true })).toBe("json");
    expect(chooseEventReporter({ json: false, terminal: true })).toBe("tty");
    expect(chooseEventReporter({ json: false, terminal: false })).toBe("plain");
  });

  it("refuses the tty reporter without a terminal to redraw on", () => {
    expect(() => createEventReporter("tty", { stdout: () => {}, stderr: () => {} })).toThrow(
      "The tty reporter needs a terminal",
    );
  });
});
