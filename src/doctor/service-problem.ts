// A failed call to the documentation service told as a doctor finding: what happened and what to
// change. 401/403 name the token and the variable it comes from; no answer names service.baseUrl;
// a 404 of a space names the mapping's `space`.
import { ApiError } from '../api/api-error.js';
import { CheckTimeoutError } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure } from './describe-failure.js';
import type { Problem } from './doctor-finding.js';

export interface ServiceProblemContext {
  /** service.baseUrl as it may be shown (no credentials). */
  baseUrl: string;
  names: NameSource;
  /** The mapping whose space was read, for a 404. */
  space?: { id: string; mapping: string; index: number };
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);

export function serviceProblem(error: unknown, context: ServiceProblemContext): Problem {
  const { baseUrl, names } = context;
  const baseUrlKey = names(['service', 'baseUrl']);
  if (error instanceof CheckTimeoutError) {
    return {
      code: 'SERVICE_UNREACHABLE',
      message: `${baseUrl} did not answer: ${error.message}`,
      hint: `check ${baseUrlKey} and that the service runs there`,
    };
  }
  if (!(error instanceof ApiError)) {
    return {
      code: 'CHECK_FAILED',
      message: describeFailure(error),
      hint: `check ${baseUrlKey} and ${names(['service', 'token'])}`,
    };
  }
  const said = error.serviceMessage === undefined ? '' : `: ${error.serviceMessage}`;
  if (error.hasStatus(401)) {
    return {
      code: 'SERVICE_TOKEN_REFUSED',
      message: `${baseUrl} refused the token (401${said})`,
      hint: `set ${names(['service', 'token'])} to a valid API token of the service`,
    };
  }
  if (error.hasStatus(403)) {
    return {
      code: 'SERVICE_TOKEN_REFUSED',
      message: `${baseUrl} accepted the token but refused ${error.method} ${error.path} (403${said})`,
      hint: `give the member behind ${names(['service', 'token'])} access (a role of edit or stronger), or use another token`,
    };
  }
  if (error.hasStatus(404) && context.space !== undefined) {
    const { id, mapping, index } = context.space;
    return {
      code: 'SPACE_NOT_FOUND',
      message: `space ${id} does not exist, or the token cannot see it (404${said})`,
      hint: `check ${names(['mappings', index, 'space'])} of mapping ${mapping}: the id of a space the token's organization holds`,
    };
  }
  if (error.code === 'API_NETWORK_ERROR' || error.code === 'API_TIMEOUT') {
    const dns = error.systemCode !== undefined && DNS_CODES.has(error.systemCode);
    return {
      code: 'SERVICE_UNREACHABLE',
      message: dns
        ? `the host of ${baseUrl} was not found (${error.systemCode})`
        : `${baseUrl} could not be reached (${error.systemCode ?? error.code})`,
      hint: dns
        ? `check the host name in ${baseUrlKey}`
        : `check ${baseUrlKey} and that the service runs there`,
    };
  }
  if (error.code === 'API_RESPONSE_INVALID' || error.hasStatus(404)) {
    return {
      code: 'SERVICE_ERROR',
      message: `${baseUrl} does not answer as the documentation service does: ${error.message}`,
      hint: `check ${baseUrlKey}: the address of the service's API, ending in /v1`,
    };
  }
  return {
    code: 'SERVICE_ERROR',
    message: `${baseUrl} answered ${error.method} ${error.path} with an error: ${error.message}`,
    hint:
      error.status >= 500
        ? `the service reports a problem of its own: try again later${error.requestId === undefined ? '' : `, or give its operators the request id ${error.requestId}`}`
        : `check ${baseUrlKey} and ${names(['service', 'token'])}`,
  };
}
