/** What a device search finds: words of model, identity and description, and the phone number with or without +. */
import { describe, expect, it } from 'vitest';
import { searchWords } from '../../data/list-patterns.ts';
import { deviceTokens } from './device.list.ts';

const matches = (tokens: string[], search: string) =>
  searchWords(search).every((word) => tokens.some((token) => token.startsWith(word)));

describe('Function: deviceTokens', () => {
  const tokens = deviceTokens({
    device_model: 'Teltonika FMB920',
    device_identity_id: '356307042441013',
    phone_number: '+4915112345678',
    description: 'Van 12, behind the Dashboard',
  });

  it.each(['teltonika', 'FMB9', 'teltonika fmb', '3563070', '+49151', '4915112', 'dash', 'van 12'])(
    'finds the device by %s',
    (search) => expect(matches(tokens, search)).toBe(true),
  );

  it.each(['920', 'ltonika', '015112345678', 'truck'])(
    'does not find it by %s (not the start of a word)',
    (search) => expect(matches(tokens, search)).toBe(false),
  );

  it('keeps at most 24 tokens, however long the description', () => {
    const many = deviceTokens({ description: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ') });
    expect(many.length).toBeLessThanOrEqual(24);
  });
});
