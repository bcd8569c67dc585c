import { describe, expect, it } from 'vitest';
import { deriveShortKey, shortKeyIdentity, uniqueShortKey } from './short-key.ts';

describe('deriveShortKey', () => {
  it.each([
    { name: 'Electrical Safety Check', key: 'ESC' },
    { name: 'welding', key: 'W' },
    { name: 'Multi-phase wiring', key: 'MPW' },
    { name: 'C++ basics', key: 'CB' },
    { name: '  leading   and trailing  ', key: 'LAT' },
    { name: 'Level 3 gas fitter', key: 'L3GF' },
    { name: 'öl prüfung', key: 'ÖP' },
    { name: 'straße', key: 'S' },
    { name: 'ß test', key: 'SST' },
    { name: '🔧 🔩', key: 'SKILL' },
    { name: 'a b c d e f g h i j k l m n o p q r s', key: 'ABCDEFGHIJKLMNOP' },
  ])('turns "$name" into $key', ({ name, key }) => {
    expect(deriveShortKey(name)).toBe(key);
  });
});

describe('uniqueShortKey', () => {
  it('keeps a derived key nobody uses', () => {
    expect(uniqueShortKey('ESC', ['ABC'])).toBe('ESC');
  });

  it('appends the first free number when the key is taken in any letter case', () => {
    expect(uniqueShortKey('W', ['w', 'W2'])).toBe('W3');
  });

  it('stays within 16 characters when appending', () => {
    expect(uniqueShortKey('ABCDEFGHIJKLMNOP', ['abcdefghijklmnop'])).toBe('ABCDEFGHIJKLMNO2');
  });
});

describe('shortKeyIdentity', () => {
  it('compares keys regardless of case and surrounding blanks', () => {
    expect(shortKeyIdentity(' esc ')).toBe(shortKeyIdentity('ESC'));
  });
});
