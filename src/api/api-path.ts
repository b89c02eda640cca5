// Paths below the base URL built from a template, each parameter percent-encoded, so that an id
// holding `/`, `?` or `..` can never address another resource. The route (parameters as `*`) is
// what logs and metrics group by.

export interface ApiPath {
  /** `/spaces/sp%2F1/content`: what is sent. */
  readonly path: string;
  /** `/spaces/{}/content`: the same request with its parameters blanked, for logs and metrics. */
  readonly route: string;
}

/**
 * `apiPath\`/spaces/${spaceId}/change-requests/${cr}\``. A string or number parameter is one
 * encoded segment and must not be empty; an ApiPath parameter (a prefix built the same way) is
 * inserted as it is.
 */
export function apiPath(
  strings: TemplateStringsArray,
  ...params: ReadonlyArray<string | number | ApiPath>
): ApiPath {
  let path = strings[0] ?? '';
  let route = path;
  params.forEach((param, i) => {
    const tail = strings[i + 1] ?? '';
    if (typeof param === 'object') {
      path += param.path + tail;
      route += param.route + tail;
      return;
    }
    const text = String(param);
    if (text === '') throw new TypeError(`empty path parameter after ${route}`);
    path += encodeSegment(text) + tail;
    route += `{}${tail}`;
  });
  return { path, route };
}

function encodeSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  // encodeURIComponent leaves dots alone; `.` and `..` as whole segments would move up the path.
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}
