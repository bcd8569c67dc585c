import { describe, expect, it } from 'vitest';
import { presignGetUrl } from './s3-presign.ts';

describe('Function: presignGetUrl', () => {
  it('signs the example of the S3 API reference (query-string authentication) to its published signature', () => {
    // Prepare: "Authenticating Requests: Using Query Parameters", example GET of test.txt.
    const params = {
      objectUrl: 'https://examplebucket.s3.amazonaws.com/test.txt',
      region: 'us-east-1',
      credentials: {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
      expiresInSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
    };

    // Act
    const url = new URL(presignGetUrl(params));

    // Assess
    expect(url.origin + url.pathname).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    expect(url.searchParams.get('X-Amz-Credential')).toBe(
      'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('86400');
    expect(url.searchParams.get('X-Amz-Signature')).toBe(
      'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('carries a session token in the signed query', () => {
    // Act
    const url = new URL(
      presignGetUrl({
        objectUrl: 'http://127.0.0.1:4566/fsm-uploads/tenants/a/logo/b',
        region: 'eu-central-1',
        credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token/+=' },
        expiresInSeconds: 3600,
      }),
    );

    // Assess
    expect(url.host).toBe('127.0.0.1:4566');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('token/+=');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
