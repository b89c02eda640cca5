// A redis-server that speaks TLS only (`--port 0 --tls-port`), with a CA, a server certificate for
// 127.0.0.1 and a client certificate made here with openssl, and clients required to show theirs.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type RedisProcess, startRedisProcess } from './redis-process.js';
import { tempDir } from './test-context.js';

const run = promisify(execFile);

export interface TlsFiles {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export interface TlsRedis {
  server: RedisProcess;
  files: TlsFiles;
  /** rediss://127.0.0.1:<port> */
  url: string;
}

/** A CA and two certificates it signs (EC keys: fast to make). */
export async function makeTlsFiles(label = 'tls'): Promise<TlsFiles> {
  const dir = await tempDir(`redis-${label}`);
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=docsync test CA',
  ]);
  await writeFile(at('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  for (const name of ['server', 'client']) {
    await run('openssl', [
      'req',
      '-new',
      ...ec,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
      '-subj',
      `/CN=docsync test ${name}`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.crt'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at(`${name}.crt`),
      '-days',
      '2',
      ...(name === 'server' ? ['-extfile', at('server.ext')] : []),
    ]);
  }
  return {
    dir,
    ca: at('ca.crt'),
    serverCert: at('server.crt'),
    serverKey: at('server.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
  };
}

export async function startTlsRedis(): Promise<TlsRedis> {
  const files = await makeTlsFiles();
  const server = await startRedisProcess({
    label: 'tls',
    portFlag: '--tls-port',
    args: [
      '--port',
      '0',
      '--tls-cert-file',
      files.serverCert,
      '--tls-key-file',
      files.serverKey,
      '--tls-ca-cert-file',
      files.ca,
      '--tls-auth-clients',
      'yes',
    ],
  });
  return { server, files, url: `rediss://127.0.0.1:${server.port}` };
}
