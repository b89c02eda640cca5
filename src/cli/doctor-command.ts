// `docsync doctor`: checks what docsync needs before it is started, or while it fails: the
// configuration, Redis, the service and its token, each mapping's space, repository, branch and
// working copy, and each OpenAPI source. One line per check with a mark and what to do; exit 0 when
// nothing failed (warnings allowed), 1 when a check failed, 2 on bad usage or an invalid configuration.
import { resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { parseDuration } from '../config/duration.js';
import { loadConfig } from '../config/load-config.js';
import { readConfigSources } from '../doctor/config-sources.js';
import { type Finding, type FindingStatus, failed, findingLabel, ok } from '../doctor/doctor-finding.js';
import { DEFAULT_CHECK_TIMEOUT_MS, runDoctor } from '../doctor/run-doctor.js';
import { ConfigError } from '../errors/config-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { type Paint, painter, printable } from './text-table.js';

export interface DoctorFlags {
  config?: string;
  json?: boolean;
  /** The limit of each check, as a duration: `20s`. */
  timeout?: string;
}

export const MARKS: Readonly<Record<FindingStatus, string>> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };
const MARK_STYLES = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'dim' } as const;
const MAX_TIMEOUT_MS = 10 * 60 * 1000;

export async function doctorCommand(flags: DoctorFlags, io: CliIo): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(`docsync doctor: ${message}\n`);
    return EXIT.invalid;
  };
  const file = flags.config ?? nonEmpty(io.env.DOCSYNC_CONFIG);
  if (file === undefined)
    return usage(
      'name the configuration with --config <file> (or DOCSYNC_CONFIG), for example: docsync doctor --config docsync.yaml',
    );
  const timeoutMs = flags.timeout === undefined ? DEFAULT_CHECK_TIMEOUT_MS : parseDuration(flags.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)
    return usage(`--timeout ${flags.timeout ?? ''} is not a duration up to 10m, such as 20s`);

  const path = resolve(io.cwd, file);
  let config: Config;
  try {
    config = await loadConfig(path, io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const finding = failed('config', undefined, {
      code: error.code,
      message: `${file} is not a valid configuration (${error.problems.length} problem(s))`,
      hint: `fix each problem below; docsync validate-config ${file} lists them too`,
      details: new ConfigError(file, error.problems).lines().map(redactUrlCredentials),
    });
    report(io, flags, file, [finding]);
    return EXIT.invalid;
  }
  const findings = await runDoctor({
    config,
    names: await readConfigSources(path),
    cwd: io.cwd,
    env: io.env,
    scope: 'all',
    timeoutMs,
  });
  const configFinding = ok(
    'config',
    undefined,
    `${file} is valid: ${config.mappings.length} mapping(s), ${config.openapi.length} OpenAPI spec(s)`,
  );
  const all = [configFinding, ...findings];
  report(io, flags, file, all);
  return all.some((finding) => finding.status === 'fail') ? EXIT.failure : EXIT.ok;
}

function report(io: CliIo, flags: DoctorFlags, file: string, findings: readonly Finding[]): void {
  if (flags.json === true) {
    const summary = summarize(findings);
    io.stdout.write(
      `${JSON.stringify({ file, ok: summary.fail === 0, summary, checks: findings }, null, 2)}\n`,
    );
    return;
  }
  const color = 'isTTY' in io.stdout && io.stdout.isTTY === true;
  io.stdout.write(renderDoctorReport(findings, painter(color)));
}

export function summarize(findings: readonly Finding[]): Record<FindingStatus, number> {
  const summary: Record<FindingStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const finding of findings) summary[finding.status] += 1;
  return summary;
}

/** One line per check (mark, what, what was found, → what to do), its further lines indented below. */
export function renderDoctorReport(findings: readonly Finding[], paint: Paint): string {
  const lines = findings.flatMap((finding) => {
    const mark = paint(MARK_STYLES[finding.status], MARKS[finding.status]);
    const hint = finding.hint === undefined ? '' : ` → ${finding.hint}`;
    return [
      `${mark} ${printable(`${findingLabel(finding)}: ${finding.message}${hint}`)}`,
      ...(finding.details ?? []).map((detail) => `    ${printable(detail)}`),
    ];
  });
  const { ok: passed, warn, fail, skip } = summarize(findings);
  const counts = [
    `${passed} passed`,
    ...(warn === 0 ? [] : [`${warn} warning(s)`]),
    ...(fail === 0 ? [] : [`${fail} failed`]),
    ...(skip === 0 ? [] : [`${skip} not checked`]),
  ];
  return `${lines.join('\n')}\n\n${counts.join(', ')}\n`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
