// Values the configuration names rather than holds, shared by the keys that take them: the name of
// an environment variable (a secret's), and the base address of a git host's API.
import { z } from 'zod';

/** The name of an environment variable, never its value. */
export const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'name an environment variable, such as GITHUB_TOKEN (not the token)');

/** An http(s) base address without credentials, query or fragment; a trailing slash is dropped. */
export const httpBaseUrl = (example: string) =>
  z.string().transform((text, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    if (
      url === undefined ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username !== '' ||
      url.password !== '' ||
      url.search !== '' ||
      url.hash !== ''
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `use an http(s) address without credentials, query or fragment, such as ${example}`,
      });
      return z.NEVER;
    }
    return url.href.replace(/\/+$/, '');
  });

export const GITHUB_API_URL = 'https://api.github.com';
