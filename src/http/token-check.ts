// The check of docsync's own `http.token`. Programs send `Authorization: Bearer <token>`; a browser
// cannot, so the token is also taken as the password of Basic authentication (any user name): the
// browser asks for it once and sends it with every request to the page, /ui and its API.
import { timingSafeEqual } from 'node:crypto';

/** Both challenges, one header each: programs read Bearer, browsers prompt for Basic. */
export const TOKEN_CHALLENGES = ['Bearer realm="docsync"', 'Basic realm="docsync", charset="UTF-8"'];

export function tokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = Buffer.from(token);
  const matches = (given: string) => {
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
  return (authorization) => {
    if (authorization === undefined) return false;
    const space = authorization.indexOf(' ');
    if (space === -1) return false;
    const scheme = authorization.slice(0, space).toLowerCase();
    const credentials = authorization.slice(space + 1).trim();
    if (scheme === 'bearer') return matches(credentials);
    if (scheme !== 'basic') return false;
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon !== -1 && matches(decoded.slice(colon + 1));
  };
}
