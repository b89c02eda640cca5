// Finds the keys an object of a JSON text carries more than once. JSON.parse keeps the last value
// silently, and so do many log shippers, so a log line must never have them.

/** The duplicate keys of `text`, each with its path (`err.code`); empty when there are none. */
export function duplicateJsonKeys(text: string): string[] {
  const reader = new JsonKeyReader(text);
  reader.value('');
  reader.end();
  return reader.duplicates;
}

class JsonKeyReader {
  readonly duplicates: string[] = [];
  #at = 0;

  constructor(private readonly text: string) {}

  value(path: string): void {
    this.#space();
    const char = this.text[this.#at];
    if (char === '{') this.#object(path);
    else if (char === '[') this.#array(path);
    else if (char === '"') this.#string();
    else this.#literal();
  }

  end(): void {
    this.#space();
    if (this.#at !== this.text.length) this.#fail('text after the value');
  }

  #object(path: string): void {
    const keys = new Set<string>();
    this.#at += 1;
    this.#space();
    if (this.text[this.#at] === '}') {
      this.#at += 1;
      return;
    }
    for (;;) {
      this.#space();
      const key = this.#string();
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (keys.has(key)) this.duplicates.push(keyPath);
      keys.add(key);
      this.#space();
      this.#expect(':');
      this.value(keyPath);
      this.#space();
      if (this.text[this.#at] !== ',') break;
      this.#at += 1;
    }
    this.#expect('}');
  }

  #array(path: string): void {
    this.#at += 1;
    this.#space();
    if (this.text[this.#at] === ']') {
      this.#at += 1;
      return;
    }
    for (let index = 0; ; index += 1) {
      this.value(`${path}[${index}]`);
      this.#space();
      if (this.text[this.#at] !== ',') break;
      this.#at += 1;
    }
    this.#expect(']');
  }

  /** A string token, decoded by JSON.parse itself so that escapes are read exactly. */
  #string(): string {
    if (this.text[this.#at] !== '"') this.#fail('a string');
    const start = this.#at;
    this.#at += 1;
    while (this.#at < this.text.length && this.text[this.#at] !== '"')
      this.#at += this.text[this.#at] === '\\' ? 2 : 1;
    this.#expect('"');
    return JSON.parse(this.text.slice(start, this.#at)) as string;
  }

  #literal(): void {
    const match = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.#at));
    if (match === null) this.#fail('a value');
    this.#at += match[0].length;
  }

  #space(): void {
    while (/\s/.test(this.text[this.#at] ?? '')) this.#at += 1;
  }

  #expect(char: string): void {
    if (this.text[this.#at] !== char) this.#fail(`'${char}'`);
    this.#at += 1;
  }

  #fail(wanted: string): never {
    throw new SyntaxError(`expected ${wanted} at offset ${this.#at} of ${this.text.slice(0, 200)}`);
  }
}
