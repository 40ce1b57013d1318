// A reader for plain JavaScript literals (objects, arrays, strings, numbers, booleans, null), so that
// metadata such as `export const criteria = {...}` is read from judge.ts without executing it.

export class LiteralError extends Error {}

export function readLiteral(source: string, start: number): unknown {
  const reader = new LiteralReader(source, start);
  return reader.value();
}

class LiteralReader {
  constructor(private readonly source: string, private offset: number) {}

  value(): unknown {
    this.skipSpace();
    const char = this.source[this.offset];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"' || char === "'") return this.string();
    if (char === "`") return this.template();
    const word = /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null)/i.exec(this.source.slice(this.offset));
    if (word) {
      this.offset += word[0].length;
      return word[0] === "true" ? true : word[0] === "false" ? false : word[0] === "null" ? null : Number(word[0]);
    }
    throw this.error("expected a literal value (object, array, string, number, boolean or null)");
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.offset++;
    for (;;) {
      this.skipSpace();
      if (this.source[this.offset] === "}") {
        this.offset++;
        return result;
      }
      const key = this.key();
      this.skipSpace();
      if (this.source[this.offset] !== ":") throw this.error(`expected ":" after key "${key}"`);
      this.offset++;
      result[key] = this.value();
      this.separator("}");
    }
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.offset++;
    for (;;) {
      this.skipSpace();
      if (this.source[this.offset] === "]") {
        this.offset++;
        return result;
      }
      result.push(this.value());
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

  private string(): string {
    const quote = this.source[this.offset];
    let end = this.offset + 1;
    while (end < this.source.length && this.source[end] !== quote) end += this.source[end] === "\\" ? 2 : 1;
    if (end >= this.source.length) throw this.error("unterminated string");
    const body = this.source.slice(this.offset + 1, end);
    this.offset = end + 1;
    const json = quote === '"' ? body : body.replaceAll("\\'", "'").replace(/(^|[^\\])"/g, '$1\\"');
    return JSON.parse(`"${json}"`) as string;
  }

  private template(): string {
    const end = this.source.indexOf("`", this.offset + 1);
    const body = this.source.slice(this.offset + 1, end);
    if (end < 0 || body.includes("${")) throw this.error("template strings with ${} are not plain literals");
    this.offset = end + 1;
    return body;
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
