// A reader for plain JavaScript literals (objects, arrays, strings, numbers, booleans, null), so that
// metadata such as `export const criteria = {...}` is read from judge.ts without executing it.

export class LiteralError extends Error {}

/** Where an object property was written: from its key to the end of its value, and its keys from the top. */
export interface PropertySpan {
  path: string[];
  start: number;
  end: number;
}

/** The literal at `start`; `onProperty` sees every object property's span (to cut metadata out of source text). */
export function readLiteral(source: string, start: number, onProperty?: (span: PropertySpan) => void): unknown {
  const reader = new LiteralReader(source, start, onProperty);
  return reader.value([]);
}

class LiteralReader {
  constructor(
    private readonly source: string,
    private offset: number,
    private readonly onProperty?: (span: PropertySpan) => void,
  ) {}

  value(path: string[]): unknown {
    this.skipSpace();
    const char = this.source[this.offset];
    if (char === "{") return this.object(path);
    if (char === "[") return this.array(path);
    if (char === '"' || char === "'" || char === "`") return this.string();
    const word = /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null)/i.exec(this.source.slice(this.offset));
    if (word) {
      this.offset += word[0].length;
      return word[0] === "true" ? true : word[0] === "false" ? false : word[0] === "null" ? null : Number(word[0]);
    }
    throw this.error("expected a literal value (object, array, string, number, boolean or null)");
  }

  private object(path: string[]): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.offset++;
    for (;;) {
      this.skipSpace();
      if (this.source[this.offset] === "}") {
        this.offset++;
        return result;
      }
      const start = this.offset;
      const key = this.key();
      this.skipSpace();
      if (this.source[this.offset] !== ":") throw this.error(`expected ":" after key "${key}"`);
      this.offset++;
      result[key] = this.value([...path, key]);
      this.onProperty?.({ path: [...path, key], start, end: this.offset });
      this.separator("}");
    }
  }

  private array(path: string[]): unknown[] {
    const result: unknown[] = [];
    this.offset++;
    for (;;) {
      this.skipSpace();
      if (this.source[this.offset] === "]") {
        this.offset++;
        return result;
      }
      result.push(this.value([...path, String(result.length)]));
      this.separator("]");
    }
  }

  private key(): string {
    const char = this.source[this.offset];
    if (char === '"' || char === "'") return this.string();
    const identifier = /^[A-Za-z_$][\w$]*/.exec(this.source.slice(this.offset));
    if (!identifier) throw this.error("expected a property name");
    this.offset += identifier[0].length;
    return identifier[0];
  }

  /** A quoted string or a template without `${}`, with every JavaScript escape (\n, \x41, \u{1F600}, \', line continuations). */
  private string(): string {
    const quote = this.source[this.offset]!;
    let result = "";
    let at = this.offset + 1;
    for (;;) {
      const char = this.source[at];
      if (char === undefined || (char === "\n" && quote !== "`")) throw this.error("unterminated string");
      if (char === quote) break;
      if (quote === "`" && char === "$" && this.source[at + 1] === "{")
        throw this.error("template strings with ${} are not plain literals");
      if (char !== "\\") {
        result += char;
        at++;
        continue;
      }
      const escape = readEscape(this.source, at + 1);
      if (escape === null) throw new LiteralError(`invalid escape sequence at "${this.source.slice(at, at + 12)}"`);
      result += escape.text;
      at = escape.end;
    }
    this.offset = at + 1;
    return result;
  }

  private separator(close: string): void {
    this.skipSpace();
    const char = this.source[this.offset];
    if (char === ",") this.offset++;
    else if (char !== close) throw this.error(`expected "," or "${close}"`);
  }

  private skipSpace(): void {
    for (;;) {
      const rest = this.source.slice(this.offset);
      const space = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(rest);
      if (!space) return;
      this.offset += space[0].length;
    }
  }

  private error(message: string): LiteralError {
    return new LiteralError(`${message} at "${this.source.slice(this.offset, this.offset + 30)}"`);
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** The escape after a backslash at `start`: its text and where the string goes on; null when malformed. */
function readEscape(source: string, start: number): { text: string; end: number } | null {
  const char = source[start];
  if (char === undefined) return null;
  if (char === "x") return codePoint(source.slice(start + 1, start + 3), /^[0-9a-f]{2}$/i, start + 3);
  if (char === "u" && source[start + 1] === "{") {
    const close = source.indexOf("}", start + 2);
    return close < 0 ? null : codePoint(source.slice(start + 2, close), /^[0-9a-f]{1,6}$/i, close + 1);
  }
  if (char === "u") return codePoint(source.slice(start + 1, start + 5), /^[0-9a-f]{4}$/i, start + 5);
  if (char === "\r" && source[start + 1] === "\n") return { text: "", end: start + 2 }; // line continuation
  if (char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029") return { text: "", end: start + 1 };
  if (char === "0" && /[0-9]/.test(source[start + 1] ?? "")) return null; // legacy octal: not in modules
  if (/[1-9]/.test(char)) return null;
  return { text: SIMPLE_ESCAPES[char] ?? char, end: start + 1 };
}

function codePoint(digits: string, pattern: RegExp, end: number): { text: string; end: number } | null {
  if (!pattern.test(digits)) return null;
  const value = Number.parseInt(digits, 16);
  return value > 0x10ffff ? null : { text: String.fromCodePoint(value), end };
}
