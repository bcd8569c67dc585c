import { describe, expect, it } from 'vitest';
import { compareBytes, foldedText, leadingPart, sortKeyOf } from './sort-key.ts';

/** What lists promise (and what the in-memory sort before the indexes did): ICU, base strength, numeric. */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

const names = [
  'Müller',
  'mueller',
  'Muller',
  'Öztürk',
  'ozturk',
  'Zimmermann',
  'Level 2',
  'Level 10',
  'Level 02 b',
  'level 1',
  'Berg',
  'Bergmann',
  'Berg Anna',
  'van der Berg',
  'Anna-Lena',
  'Anna Lena',
  'Ärger',
  'Aaron',
  'zoë',
  'Zoe',
  'Ida 9',
  'Ida 10',
  'Élodie',
  'Eloise',
];

describe('Function: foldedText', () => {
  it('orders names as the collator does: case and accents ignored, numbers by value', () => {
    // Act
    const byKey = [...names].sort((a, b) =>
      foldedText(a) < foldedText(b) ? -1 : foldedText(a) > foldedText(b) ? 1 : 0,
    );
    const byCollator = [...names].sort((a, b) => collator.compare(a, b));

    // Assess: equal under the collator may come in any order; compare the folded sequences.
    expect(byKey.map(foldedText)).toEqual(byCollator.map(foldedText));
  });

  it('folds case and accents to one key', () => {
    expect(new Set(['Öztürk', 'OZTURK', 'ozturk'].map(foldedText)).size).toBe(1);
  });

  it('orders digit runs by value, leading zeros aside', () => {
    expect(foldedText('Level 2') < foldedText('Level 10')).toBe(true);
    expect(foldedText('Level 02')).toBe(foldedText('Level 2'));
  });

  it('keeps a long value within the key limit', () => {
    expect(foldedText('ü'.repeat(1000)).length).toBeLessThanOrEqual(120);
  });
});

describe('Function: sortKeyOf', () => {
  it('sorts a shorter value before a longer one that starts with it, whatever follows', () => {
    // Act
    const berg = sortKeyOf([foldedText('Berg'), foldedText('Zoe')], 'id-2');
    const bergmann = sortKeyOf([foldedText('Bergmann'), foldedText('Anna')], 'id-1');

    // Assess
    expect(berg < bergmann).toBe(true);
  });

  it('breaks ties by id and names its leading part', () => {
    // Act
    const a = sortKeyOf([foldedText('Weber')], 'a');
    const b = sortKeyOf([foldedText('weber')], 'b');

    // Assess
    expect(a < b).toBe(true);
    expect(leadingPart(a)).toBe(leadingPart(b));
  });
});

describe('keys compared in memory as DynamoDB compares them', () => {
  it('orders text by its UTF-8 bytes, characters above U+FFFF after U+E000–U+FFFF', () => {
    const keys = ['b', '\u{1F600}x', '\uFF21', 'a\u0001z', 'a', '\uE000', 'ab', '\u{10000}'];
    const byBytes = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...keys].sort(compareBytes)).toEqual(byBytes);
    // JavaScript's own order differs exactly there: the emoji's surrogates sort below U+E000.
    expect([...keys].sort()).not.toEqual(byBytes);
  });

  it('agrees with the bytes on random strings of every plane', () => {
    const planes = [0x41, 0x7f0, 0xe123, 0xfffd, 0x10437, 0x1f600, 0x10fff0];
    for (let n = 0; n < 500; n++) {
      const word = () =>
        String.fromCodePoint(
          ...Array.from({ length: 1 + (n % 4) }, (_, i) => planes[(n * 7 + i * 3) % planes.length] ?? 0x41),
        );
      const a = word() + String(n % 3);
      const b = word() + String(n % 5);
      expect(Math.sign(compareBytes(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});
