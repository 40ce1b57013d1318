import { describe, expect, it } from "vitest";
import { DEFAULT_VIEWER_PORT } from "../view/index.ts";
import type { CommandSpec } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import { formatHelp, formatOverview, helpWidth, wrap } from "./help.ts";

const width = (text: string) => Math.max(...text.split("\n").map((line) => [...line].length));

describe("--help text", () => {
  it("describes every option of every command in one line of its own text", () => {
    for (const [name, command] of Object.entries(COMMANDS) as [string, CommandSpec][]) {
      for (const [flag, option] of Object.entries(command.options)) {
        expect(option.description, `${name} --${flag}`).toMatch(/^\S[^\n]{9,}$/);
        // Shown beside its flag: the first words of the description follow the label on its line.
        const help = formatHelp(command, 200);
        expect(help, `${name} --${flag}`).toMatch(
          new RegExp(
            `^  --${flag}\\b[^\\n]*\\s{2,}${escape(option.description.split(" ").slice(0, 3).join(" "))}`,
            "m",
          ),
        );
      }
    }
  });

  it("wraps the summary and the options at the width given, descriptions under their own column", () => {
    for (const columns of [60, 80, 132]) {
      const help = formatHelp(COMMANDS.run, columns);
      expect(width(help), `${columns} columns`).toBeLessThanOrEqual(columns);
      // No word is cut: every word of the summary is still there, in order.
      expect(help.replace(/\s+/g, " ")).toContain(COMMANDS.run.summary);
    }
    const lines = formatHelp(COMMANDS.run, 80).split("\n");
    const json = lines.findIndex((line) => line.startsWith("  --json"));
    const column = lines[json]!.indexOf("Print");
    expect(lines[json + 1]!.search(/\S/)).toBe(column);
  });

  it("puts descriptions under their flags on a narrow terminal, and keeps it within the width", () => {
    const help = formatHelp(COMMANDS.retry, 40);
    expect(width(help)).toBeLessThanOrEqual(40);
    expect(help).toContain("  --concurrency <n>\n      How many work items run at once");
  });

  it("lists each command once in the overview with its summary's first sentence, wrapped", () => {
    const overview = formatOverview(COMMANDS, 80);
    expect(width(overview)).toBeLessThanOrEqual(80);
    expect(overview).toContain(
      "  calibrate      Run each eval's controls: positive controls must score 1 on\n                 every criterion, negative ones below 1.\n",
    );
    expect(overview).not.toContain("Exits 1 naming any suspect judge");
    for (const name of Object.keys(COMMANDS)) expect(overview).toMatch(new RegExp(`^  ${name} `, "m"));
  });

  it("shows a string option's default and marks repeatable options as usage lines do", () => {
    const help = formatHelp(COMMANDS.run, 200);
    expect(help).toMatch(
      /^ {2}--benchmark <dir> +The benchmark folder: benchmark\.ts, evals\/ and results\/ \(default: \.\)$/m,
    );
    expect(help).toMatch(/^ {2}--only-eval <id>\.\.\. +Work on these evals only$/m);
    expect(help).not.toContain("(default: false)");
  });

  it("says --json is JSON Lines wherever it streams events", () => {
    for (const command of [COMMANDS.run, COMMANDS.retry, COMMANDS.rejudge, COMMANDS["add-models"]])
      expect(command.options.json.description).toContain("JSON Lines");
  });

  it("offers --new only to commands that can start a new run", () => {
    const offering = Object.entries(COMMANDS)
      .filter(([, command]) => "new" in command.options)
      .map(([name]) => name);
    expect(offering).toEqual(["run", "plan", "calibrate", "audit"]);
  });

  it("states the viewer's real default port", () => {
    expect(COMMANDS.view.options.port.default).toBe(String(DEFAULT_VIEWER_PORT));
  });

  it("wraps at the terminal's width, and at 80 columns when there is no terminal or it reports 0 columns", () => {
    expect(helpWidth({ columns: 132 })).toBe(132);
    expect(helpWidth({})).toBe(80);
    expect(helpWidth({ columns: 0 })).toBe(80);
  });
});

describe("wrap", () => {
  it("breaks between words, keeps a usage line's bracketed groups whole, and gives an overlong word its own line", () => {
    expect(wrap("aa bb cc dd", 5)).toEqual(["aa bb", "cc dd"]);
    expect(wrap("run [--run <dir> | --new] [--json]", 25)).toEqual(["run [--run <dir> | --new]", "[--json]"]);
    expect(wrap("export [<run-dir | run-id>] x", 10)).toEqual(["export", "[<run-dir | run-id>]", "x"]);
    expect(wrap("", 10)).toEqual([""]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
