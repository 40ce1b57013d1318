import { describe, expect, it } from "vitest";
import { listFlag, parseFlags, type CommandSpec, type Options } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import { parseScope } from "./parse-scope.ts";

const parse = (command: keyof typeof COMMANDS, argv: string[]) =>
  parseFlags(command, COMMANDS[command] as CommandSpec<Options>, argv);

describe("flags that name nothing are refused, never read as absent", () => {
  it("an empty value of any string flag names the flag and what it takes", () => {
    expect(() => parse("run", ["--model="])).toThrow(
      "--model was given an empty value; give provider/model, or leave the flag out",
    );
    expect(() => parse("run", ["--only-eval", ""])).toThrow(
      "--only-eval was given an empty value; give id, or leave the flag out",
    );
    expect(() => parse("run", ["--max-cost= "])).toThrow(
      "--max-cost was given an empty value; give usd, or leave the flag out",
    );
    expect(() => parse("view", ["--port="])).toThrow(
      "--port was given an empty value; give port, or leave the flag out",
    );
    expect(() => parse("export", ["--output="])).toThrow(
      "--output was given an empty value; give dir, or leave the flag out",
    );
    expect(() => parse("plan", ["--benchmark="])).toThrow(
      "--benchmark was given an empty value; give dir, or leave the flag out",
    );
    expect(parse("run", ["--model=p/m", "--model", "q/n"]).values.model).toEqual(["p/m", "q/n"]);
  });

  it("an empty item between commas is refused", () => {
    expect(() => parseScope(parse("run", ["--model", "p/m,"]).values)).toThrow(
      '--model has an empty item in "p/m,"; separate the values with single commas',
    );
    expect(() => listFlag("only-eval", ["a,,b"])).toThrow('--only-eval has an empty item in "a,,b"');
    expect(listFlag("model", ["p/m, q/n", "r/s"])).toEqual(["p/m", "q/n", "r/s"]);
    expect(listFlag("model", undefined)).toBeUndefined();
  });
});
