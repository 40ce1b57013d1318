// Every case line is checked against these schemas when the benchmark loads: a typo in cases.jsonl is an error
// naming the file, the line and the field.
import * as z from "zod";
import type { EvalConfig } from "openeval";

export default {
  cases: {
    input: z.object({ country: z.string().min(1) }),
    expected: z.object({ capital: z.string().min(1) }),
  },
} satisfies EvalConfig;
