// `http.listen` as `host:port`, `[ipv6]:port` or `:port` (all interfaces).
import { isIP } from 'node:net';
import { z } from 'zod';
import { withJsonSchemaHint } from './json-schema-hints.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/** Where docsync's HTTP server listens when http.listen is not set: this machine only. */
export const DEFAULT_HTTP_LISTEN: ListenAddress = { host: '127.0.0.1', port: 8787 };

const LISTEN = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/;

export const listenAddressSchema = withJsonSchemaHint(
  z.string().transform((text, ctx): ListenAddress => {
    const match = LISTEN.exec(text.trim());
    const port = Number(match?.[3]);
    if (!match || port > 65535) {
      ctx.addIssue({
        code: 'custom',
        message: `"${text}" is not a listen address: write host:port, for example 127.0.0.1:8787`,
      });
      return z.NEVER;
    }
    const host = match[1] ?? match[2] ?? '';
    return { host: host === '' ? '0.0.0.0' : host, port };
  }),
  {
    schema: { type: 'string', pattern: LISTEN.source, $comment: 'host:port, [ipv6]:port or :port' },
    formatDefault: (value) => {
      const { host, port } = value as ListenAddress;
      return `${host.includes(':') ? `[${host}]` : host}:${port}`;
    },
  },
);

/** True for addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
