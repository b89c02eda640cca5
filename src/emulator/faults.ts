// Injected faults, so that clients can be tested against a service that is slow, rate-limits and
// fails: added latency, 429 with Retry-After and 5xx at chosen rates (with a seeded random, so a run
// can be repeated), and a queue of forced answers for the next matching requests (an HTML page among
// them, as a failing proxy sends).
import { z } from 'zod';

export const forcedFaultSchema = z
  .strictObject({
    status: z.int().min(200).max(599),
    retryAfterSeconds: z.number().min(0).optional(),
    /**
     * An HTML page instead of the JSON error body, as a proxy or load balancer in front of a
     * service sends when it fails: with 200 too, which a client must not take for the answer.
     */
    html: z.boolean().optional(),
    /** Only requests with this method. */
    method: z.string().optional(),
    /** Only requests whose path (without query) matches this regular expression. */
    path: z.string().optional(),
    /** How many matching requests get this answer. */
    times: z.int().min(1).default(1),
  })
  .refine((fault) => fault.status >= 400 || fault.html === true, {
    message: 'a status below 400 is forced only with html: true (an error page sent as a success)',
    path: ['status'],
  });

export const faultConfigSchema = z.strictObject({
  latencyMs: z.number().min(0).default(0),
  rate429: z.number().min(0).max(1).default(0),
  rate5xx: z.number().min(0).max(1).default(0),
  retryAfterSeconds: z.number().min(0).default(1),
  seed: z.int().default(1),
  forced: z.array(forcedFaultSchema).default([]),
});

export type FaultConfig = z.output<typeof faultConfigSchema>;
export type ForcedFault = z.output<typeof forcedFaultSchema>;

export interface FaultAnswer {
  status: number;
  retryAfterSeconds?: number;
  /** Answered with an HTML page, not the service's JSON error body. */
  html?: boolean;
}

/** Reads `--faults latency=50ms,429=0.1,5xx=0.05,retry-after=2,seed=7`. */
export function parseFaultSpec(spec: string): FaultConfig {
  const config: Record<string, unknown> = {};
  for (const part of spec
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [key, value = ''] = part.split('=', 2) as [string, string?];
    switch (key) {
      case 'latency': {
        const ms = durationMs(value);
        if (ms === undefined) throw new Error(`--faults latency=${value}: write a duration such as 50ms`);
        config.latencyMs = ms;
        break;
      }
      case '429':
        config.rate429 = rate(key, value);
        break;
      case '5xx':
        config.rate5xx = rate(key, value);
        break;
      case 'retry-after':
        config.retryAfterSeconds = Number(value);
        break;
      case 'seed':
        config.seed = Number(value);
        break;
      default:
        throw new Error(`--faults: unknown fault "${key}": use latency, 429, 5xx, retry-after, seed`);
    }
  }
  const parsed = faultConfigSchema.safeParse(config);
  if (!parsed.success)
    throw new Error(`--faults "${spec}": ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  return parsed.data;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds for `50ms`, `1.5s`, ...; undefined when the text is not a number with a unit. */
function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (match === null) return undefined;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS]);
}

function rate(key: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 1)
    throw new Error(`--faults ${key}=${value}: give a rate from 0 to 1`);
  return number;
}

export class Faults {
  #config: FaultConfig;
  #random: () => number;

  constructor(config: FaultConfig = faultConfigSchema.parse({})) {
    this.#config = config;
    this.#random = seeded(config.seed);
  }

  get config(): FaultConfig {
    return this.#config;
  }

  set(config: FaultConfig): void {
    this.#config = config;
    this.#random = seeded(config.seed);
  }

  /** The fault to answer this request with, if any, and the latency to add first. */
  decide(method: string, path: string): { latencyMs: number; answer?: FaultAnswer } {
    const { latencyMs } = this.#config;
    const forced = this.#config.forced.find(
      (fault) =>
        (fault.method === undefined || fault.method.toUpperCase() === method) &&
        (fault.path === undefined || new RegExp(fault.path).test(path)),
    );
    if (forced !== undefined) {
      forced.times -= 1;
      if (forced.times <= 0) this.#config.forced.splice(this.#config.forced.indexOf(forced), 1);
      return {
        latencyMs,
        answer: {
          status: forced.status,
          ...(forced.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: forced.retryAfterSeconds }),
          ...(forced.html === true ? { html: true } : {}),
        },
      };
    }
    const draw = this.#random();
    if (draw < this.#config.rate429)
      return { latencyMs, answer: { status: 429, retryAfterSeconds: this.#config.retryAfterSeconds } };
    if (draw < this.#config.rate429 + this.#config.rate5xx) return { latencyMs, answer: { status: 503 } };
    return { latencyMs };
  }
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
