/**
 * The identity provider gets strings straight from clients (login names, client ids, tokens)
 * and looks them up by key. Values longer than any key DynamoDB can hold must find nothing,
 * not fail: an oversized value answers like a wrong one, never with a 5xx.
 */
import { describe, expect, it } from 'vitest';
import { openLogin, postForm, seededClient, submitLogin } from '../support/sign-in.ts';

const acmeWeb = seededClient('acme-web');
const huge = 'a'.repeat(20_000);

describe('Sign-in with oversized values', () => {
  it('answers a 20 000-character login name like a wrong password (401 page)', async () => {
    const { browser, page } = await openLogin(acmeWeb);

    const failed = await submitLogin(browser, page, `${huge}@acme.test`, 'whatever-password');

    expect(failed.status).toBe(401);
  });

  it('answers a token request of an oversized client id with 401 invalid_client', async () => {
    const response = await postForm('shared', 'token', {
      grant_type: 'client_credentials',
      client_id: huge,
      client_secret: huge,
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('answers a refresh with an oversized refresh token with 400 invalid_grant', async () => {
    const response = await postForm('shared', 'token', {
      grant_type: 'refresh_token',
      client_id: acmeWeb.clientId,
      client_secret: acmeWeb.clientSecret,
      refresh_token: huge,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers a logout with an oversized client id with 401 and an oversized token with 400', async () => {
    const foreign = await postForm('shared', 'logout', {
      client_id: huge,
      client_secret: 'x',
      refresh_token: 'x',
    });
    const oversized = await postForm('shared', 'logout', {
      client_id: acmeWeb.clientId,
      client_secret: acmeWeb.clientSecret,
      refresh_token: huge,
    });

    expect(foreign.status).toBe(401);
    expect(oversized.status).toBe(400);
  });
});
