import { describe, expect, it } from 'vitest';
import { TOKEN_CHALLENGES, tokenCheck } from '../../../src/http/token-check.js';

const TOKEN = 'a-token-of-sixteen-chars';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('tokenCheck', () => {
  const authorized = tokenCheck(TOKEN);

  it('takes the token as a bearer token, or as the password of Basic with any user name', () => {
    expect(authorized(`Bearer ${TOKEN}`)).toBe(true);
    expect(authorized(`bearer ${TOKEN}`)).toBe(true);
    expect(authorized(basic('ops', TOKEN))).toBe(true);
    expect(authorized(basic('', TOKEN))).toBe(true);
  });

  it('refuses anything else', () => {
    expect(authorized(undefined)).toBe(false);
    expect(authorized('')).toBe(false);
    expect(authorized(TOKEN)).toBe(false);
    expect(authorized(`Bearer ${TOKEN}x`)).toBe(false);
    expect(authorized(`Bearer ${'x'.repeat(TOKEN.length)}`)).toBe(false);
    expect(authorized(basic(TOKEN, 'wrong'))).toBe(false);
    expect(authorized(`Basic ${Buffer.from(TOKEN).toString('base64')}`)).toBe(false);
    expect(authorized('Basic !!!not-base64')).toBe(false);
    expect(authorized(`Digest ${TOKEN}`)).toBe(false);
  });

  it('challenges programs with Bearer and browsers with Basic', () => {
    expect(TOKEN_CHALLENGES.map((challenge) => challenge.split(' ')[0])).toEqual(['Bearer', 'Basic']);
  });
});
