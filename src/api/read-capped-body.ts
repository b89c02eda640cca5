// Reading a response body into memory with a ceiling, so that a misbehaving server cannot make the
// worker buffer without bound.
import type { Readable } from 'node:stream';

/** The whole body, or undefined (with the stream destroyed) as soon as it grows past `maxBytes`. */
export async function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}
