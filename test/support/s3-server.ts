// An S3 server speaking the real protocol (s3rver: signatures checked, multipart, presigned
// addresses) on a free loopback port, with its files in a temp folder, closed after the test. Every
// request it receives is recorded as it arrives, so that tests see what reached the server itself.
import { utimes } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { S3Client } from '@aws-sdk/client-s3';
import { closeAfter } from './close-after.js';
import { tempDir } from './test-context.js';

/** s3rver's fixed credentials: any other key is refused with InvalidAccessKeyId. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3ServerRequest {
  method: string;
  /** The path and query as sent: `/bucket/docsync/abc.zip?partNumber=1&uploadId=...`. */
  url: string;
}

export interface TestS3Server {
  /** Such as http://127.0.0.1:41234: artifacts.s3.endpoint, with forcePathStyle. */
  endpoint: string;
  /** A client of the test's own with s3rver's keys, to look into the bucket; closed after the test. */
  client: S3Client;
  requests: S3ServerRequest[];
  /** Makes an object as old as `at` (its LastModified): what the store reads from its file's time. */
  backdate(bucket: string, key: string, at: Date): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer: Server;
  store: { getResourcePath(bucket: string, key: string, resource: 'object'): string };
}

type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types: its constructor is typed here by what this file uses.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export async function startS3Server(buckets: readonly string[]): Promise<TestS3Server> {
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: await tempDir('s3rver'),
    silent: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const requests: S3ServerRequest[] = [];
  server.httpServer.prependListener('request', (request) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '' });
  });
  closeAfter(async () => {
    server.httpServer.closeAllConnections();
    await server.close();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  closeAfter(() => client.destroy());
  return {
    endpoint,
    client,
    requests,
    backdate: (bucket, key, at) => utimes(server.store.getResourcePath(bucket, key, 'object'), at, at),
  };
}
