// A digest of a parsed document that ignores its layout: the sha256 of its JSON with every object's
// keys sorted. Equal documents give equal digests however they were written (JSON or YAML, key
// order, spacing, comments), so that docsync's document can be compared with the one the service
// parsed and keeps. Time-sliced: a spec of 10 MB must not hold the event loop.
import { createHash } from 'node:crypto';
import { type EventLoopSlicer, eventLoopSlicer } from './event-loop-slicer.js';

const BLOCK_CHARS = 64 * 1024;

/** What is left to write: a value, or text already made (a bracket, a comma, a key). */
type Step = { value: unknown } | string;

export async function canonicalDigest(
  value: unknown,
  options: { signal?: AbortSignal; slicer?: EventLoopSlicer } = {},
): Promise<string> {
  const slicer = options.slicer ?? eventLoopSlicer(options.signal);
  const hash = createHash('sha256');
  // Small pieces are gathered and hashed in blocks: one update per piece costs more than the walk.
  let block = '';
  const write = (text: string) => {
    block += text;
    if (block.length >= BLOCK_CHARS) {
      hash.update(block);
      block = '';
    }
  };
  // Depth-first with a stack of its own: no recursion limit on a deep document.
  const steps: Step[] = [{ value }];
  while (steps.length > 0) {
    if (slicer.due()) await slicer.pause();
    const step = steps.pop() as Step;
    if (typeof step === 'string') {
      write(step);
      continue;
    }
    const node = step.value;
    if (Array.isArray(node)) {
      write('[');
      steps.push(']');
      for (let i = node.length - 1; i >= 0; i -= 1) {
        steps.push({ value: node[i] });
        if (i > 0) steps.push(',');
      }
    } else if (typeof node === 'object' && node !== null) {
      write('{');
      steps.push('}');
      const members = node as Record<string, unknown>;
      const keys = Object.keys(members).sort();
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        steps.push({ value: members[key] }, `${JSON.stringify(key)}:`);
        if (i > 0) steps.push(',');
      }
    } else {
      // As JSON writes it: the service's answer went through JSON, so docsync's value must too.
      write(JSON.stringify(node) ?? 'null');
    }
  }
  return hash.update(block).digest('hex');
}
