import { describe, expect, it } from 'vitest';
import { checkCommentMarkdown, schemeOf } from './comment-markdown.ts';

const tina = '019d2f40-2222-7000-8000-0000000007e1';
const theo = '019d2f40-3333-7000-8000-0000000007e2';

describe('Function: checkCommentMarkdown', () => {
  describe('successful bodies', () => {
    it.each([
      { title: 'plain text', body: 'The valve is replaced.' },
      { title: 'emphasis, strong and strikethrough', body: '*a* **b** ~~c~~' },
      { title: 'headings, lists and a rule', body: '# Done\n\n- one\n- two\n\n1. first\n\n---' },
      {
        title: 'code spans and fences holding HTML',
        body: 'Use `<br>`:\n\n```html\n<script>x</script>\n```',
      },
      { title: 'an escaped angle bracket', body: 'Press \\<Enter> to continue' },
      { title: 'a comparison that is no tag', body: 'a < b and c > d' },
      { title: 'a block quote and a table', body: '> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |' },
      {
        title: 'http, https, mailto and relative links',
        body: '[a](http://x.test) [b](https://x.test) [c](mailto:o@x.test) [d](/api/v2/cases) [e](#top)',
      },
      { title: 'an https autolink', body: '<https://example.test/path>' },
      { title: 'a javascript: text outside any link', body: 'never type javascript:alert(1) anywhere' },
    ])('accepts $title', ({ body }) => {
      expect(checkCommentMarkdown(body).errors).toEqual([]);
    });
  });

  describe('failing bodies', () => {
    it.each([
      { title: 'an HTML block', body: 'Hello\n\n<div onclick="x()">hi</div>', construct: 'html', line: 3 },
      { title: 'inline HTML', body: 'Hello <br> world', construct: 'html', line: 1 },
      { title: 'an HTML comment', body: 'a\n\n<!-- hidden -->', construct: 'html', line: 3 },
      { title: 'a javascript: link', body: '[click](javascript:alert(1))', construct: 'link', line: 1 },
      {
        title: 'an entity-encoded javascript: link',
        body: '[x](&#106;avascript:alert(1))',
        construct: 'link',
        line: 1,
      },
      {
        title: 'a percent-encoded tab in the scheme',
        body: '[x](java%09script:alert(1))',
        construct: 'link',
        line: 1,
      },
      { title: 'a javascript: autolink', body: '<javascript:alert(1)>', construct: 'link', line: 1 },
      { title: 'a data: link', body: '[x](data:text/html;base64,PHNjcmlwdD4=)', construct: 'link', line: 1 },
      {
        title: 'a vbscript: reference link',
        body: '[x][r]\n\n[r]: vbscript:msgbox(1)',
        construct: 'link',
        line: 1,
      },
      {
        title: 'an image',
        body: 'look\n\n![pixel](https://tracker.test/p.gif)',
        construct: 'image',
        line: 3,
      },
      { title: 'a mention without a user id', body: '@[Tina](user:tina)', construct: 'mention', line: 1 },
    ])('refuses $title at #/body_markdown with its line', ({ body, construct, line }) => {
      const { errors } = checkCommentMarkdown(body);

      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        type: 'field-invalid',
        pointer: '#/body_markdown',
        data: { construct, line },
      });
    });

    it('reports every refused construct, up to ten', () => {
      const body = Array.from({ length: 12 }, (_, i) => `<i>${i}</i>`).join('\n\n');

      expect(checkCommentMarkdown(body).errors).toHaveLength(10);
    });
  });

  describe('mentions', () => {
    it('finds user: links once each, lower-cased, in order of first mention', () => {
      const body = `@[Tina](user:${tina.toUpperCase()}) and @[Theo](user:${theo}), again @[T](user:${tina})`;

      expect(checkCommentMarkdown(body)).toEqual({ errors: [], mentionIds: [tina, theo] });
    });

    it('ignores mentions inside code', () => {
      expect(checkCommentMarkdown(`\`@[Tina](user:${tina})\``).mentionIds).toEqual([]);
    });
  });
});

describe('Function: schemeOf', () => {
  it.each([
    ['https://x.test', 'https'],
    ['JavaScript:alert(1)', 'javascript'],
    [' \u0001javascript:x', 'javascript'],
    ['java\tscript:x', 'javascript'],
    ['/relative/path', undefined],
    ['#anchor', undefined],
    ['no-scheme-here', undefined],
  ])('reads %j as %j', (href, scheme) => {
    expect(schemeOf(href)).toBe(scheme);
  });
});
