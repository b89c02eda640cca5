// Answers made from the public document for one operation, checked twice: each must be an answer
// the document allows (the generator's own check), and docsync's zod schema must read it.

import { afterAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { schemaSamples } from './schema-samples.js';
import { checkResponse, documentOperation } from './service-document.js';

/** An operation and the success status whose answer is read: `['GET', '/spaces/{spaceId}', 200]`. */
export type Operation = readonly [method: string, path: string, status: number];

/** The document's JSON schema of the operation's answer with that status. */
export function responseSchema([method, path, status]: Operation): unknown {
  const response = documentOperation(method, path)?.responses?.[String(status)];
  if (response === undefined || '$ref' in response) throw new Error(`${method} ${path}: no ${status} answer`);
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${method} ${path}: no JSON schema for ${status}`);
  return schema;
}

export interface SampledAnswers {
  generated: number;
  /** Samples the document itself refuses: the generator's fault. */
  invalid: string[];
  /** Samples docsync's schema refuses, with its first complaints. */
  rejected: string[];
}

export function sampleAnswers(operation: Operation, schema: z.ZodType): SampledAnswers {
  const [method, path, status] = operation;
  const samples = schemaSamples(responseSchema(operation));
  const invalid = samples.flatMap((sample, i) => {
    const check = checkResponse(method, path, status, sample);
    if (!check.known) return [`sample ${i}: the document has no schema for it`];
    return check.valid ? [] : [`sample ${i}: ${check.errors.join('; ')}`];
  });
  const rejected = samples.flatMap((sample, i) => {
    const parsed = schema.safeParse(sample);
    return parsed.success
      ? []
      : [
          `sample ${i}: ${parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('/')} ${issue.message}`)
            .join('; ')}`,
        ];
  });
  return { generated: samples.length, invalid, rejected };
}

export type DocumentedCalls = Record<string, { operation: Operation; schema: z.ZodType }>;

/**
 * One test per call: the document's answers for its operation are all valid and all read by its
 * schema. Prints the totals once the file's tests ran, as `<label>: N operations, ...`.
 */
export function itReadsEveryDocumentedAnswer(label: string, calls: DocumentedCalls): void {
  const totals = { generated: 0, rejected: 0 };
  afterAll(() => {
    process.stdout.write(
      `${label}: ${Object.keys(calls).length} operations, ${totals.generated} samples, ` +
        `${totals.rejected} rejected\n`,
    );
  });
  it.each(Object.entries(calls))('%s reads every answer the document allows', (_name, call) => {
    const { generated, invalid, rejected } = sampleAnswers(call.operation, call.schema);
    expect(generated).toBeGreaterThan(1);
    totals.generated += generated;
    expect(invalid).toEqual([]);
    totals.rejected += rejected.length;
    expect(rejected.slice(0, 5)).toEqual([]);
  });
}
