/**
 * A strict JSON reader that also remembers where each object and array started, so an error about the third
 * operation can name its line. `JSON.parse` reports neither that nor, on Node 20, a position for every syntax error.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonReadResult =
  | {
      readonly ok: true;
      readonly value: JsonValue;
      /** Where each object and array starts. */
      readonly offsetOf: ReadonlyMap<object, number>;
      /** Where each element of each array starts, strings and numbers included. */
      readonly elementOffsetsOf: ReadonlyMap<object, readonly number[]>;
    }
  | { readonly ok: false; readonly offset: number; readonly message: string };

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Deeper nesting than any operation list needs; the limit keeps the reader from exhausting the stack. */
const MAX_DEPTH = 64;

export function readJson(text: string): JsonReadResult {
  const reader = new JsonReader(text);
  try {
    const value = reader.readDocument();
    return { ok: true, value, offsetOf: reader.offsets, elementOffsetsOf: reader.elementOffsets };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, offset: error.offset, message: error.message };
    throw error;
  }
}

class JsonReader {
  readonly offsets = new Map<object, number>();
  readonly elementOffsets = new Map<object, number[]>();
  private index = 0;

  constructor(private readonly text: string) {}

  readDocument(): JsonValue {
    const value = this.readValue(0);
    this.skipWhitespace();
    if (this.index < this.text.length) this.fail(`unexpected text after the JSON value`);
    return value;
  }

  private readValue(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail('JSON nested too deeply');
    this.skipWhitespace();
    const char = this.text.charAt(this.index);
    if (char === '{') return this.readObject(depth);
    if (char === '[') return this.readArray(depth);
    if (char === '"') return this.readString();
    if (char === '-' || (char >= '0' && char <= '9')) return this.readNumber();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return value;
      }
    }
    if (this.index >= this.text.length) this.fail('the JSON ends early (truncated?)');
    return this.fail(`unexpected character ${JSON.stringify(char)}`);
  }

  private readObject(depth: number): JsonValue {
    const start = this.index;
    this.index += 1;
    const result: { [key: string]: JsonValue } = {};
    this.offsets.set(result, start);
    this.skipWhitespace();
    if (this.text.charAt(this.index) === '}') {
      this.index += 1;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charAt(this.index) !== '"') this.fail('expected a property name in double quotes');
      const key = this.readString();
      this.skipWhitespace();
      if (this.text.charAt(this.index) !== ':') this.fail(`expected ":" after property name "${key}"`);
      this.index += 1;
      Object.defineProperty(result, key, { value: this.readValue(depth + 1), enumerable: true, writable: true });
      this.skipWhitespace();
      const next = this.text.charAt(this.index);
      this.index += 1;
      if (next === '}') return result;
      if (next !== ',') this.fail('expected "," or "}" after a property', this.index - 1);
    }
  }

  private readArray(depth: number): JsonValue {
    const start = this.index;
    this.index += 1;
    const result: JsonValue[] = [];
    const elementOffsets: number[] = [];
    this.offsets.set(result, start);
    this.elementOffsets.set(result, elementOffsets);
    this.skipWhitespace();
    if (this.text.charAt(this.index) === ']') {
      this.index += 1;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      elementOffsets.push(this.index);
      result.push(this.readValue(depth + 1));
      this.skipWhitespace();
      const next = this.text.charAt(this.index);
      this.index += 1;
      if (next === ']') return result;
      if (next !== ',') this.fail('expected "," or "]" after an array element', this.index - 1);
    }
  }

  private readString(): string {
    const start = this.index;
    this.index += 1;
    while (this.index < this.text.length) {
      const char = this.text.charAt(this.index);
      if (char === '"') {
        this.index += 1;
        // A raw tab is invalid JSON but means only one thing; JSON.parse then decodes the escapes per the spec.
        const literal = this.text.slice(start, this.index).replace(/\t/g, '\\t');
        try {
          return JSON.parse(literal) as string;
        } catch {
          return this.fail('invalid escape sequence in a string', start);
        }
      }
      if (char === '\\') {
        this.index += 2;
        continue;
      }
      if (char === '\n' || char === '\r') {
        this.fail('a raw line break inside a JSON string (write it as \\n)');
      }
      if (char < ' ' && char !== '\t') this.fail('a control character inside a JSON string');
      this.index += 1;
    }
    return this.fail('a string is never closed (truncated?)', start);
  }

  private readNumber(): number {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.index;
    const found = match.exec(this.text);
    if (found === null) return this.fail('invalid number');
    this.index += found[0].length;
    return Number(found[0]);
  }

  private skipWhitespace(): void {
    while (this.index < this.text.length && ' \t\n\r'.includes(this.text.charAt(this.index))) this.index += 1;
  }

  private fail(message: string, offset = this.index): never {
    throw new JsonSyntaxError(Math.min(offset, this.text.length), message);
  }
}
