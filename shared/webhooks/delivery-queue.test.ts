import { describe, expect, it } from 'vitest';
import { type DeliveryMessage, messageBodyOf } from './delivery-queue.ts';

const message = (body: string): DeliveryMessage => ({
  v: 1,
  delivery_id: 'd1',
  workspace_id: 'w1',
  endpoint_id: 'e1',
  event_id: 'ev1',
  event_type: 'comment.reaction',
  request_id: 'r1',
  attempt: 1,
  body,
});

// The characters SQS accepts in a message body (SendMessage: "Invalid characters found").
const sqsAllowed = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD]*$/;

describe('webhook delivery messages', () => {
  it('carry emoji and other astral characters as escapes SQS accepts, read back unchanged', () => {
    const body = JSON.stringify({
      data: { object: { emoji: '🙌', body_markdown: 'ship it 🚀 \uFFFF 𝔘 ü' } },
    });
    const encoded = messageBodyOf(message(body));
    expect(encoded).toMatch(sqsAllowed);
    expect(JSON.parse(encoded).body).toBe(body);
  });

  it('leave plain text as JSON.stringify writes it', () => {
    const plain = message('{"type":"case.created","title":"Zählerwechsel"}');
    expect(messageBodyOf(plain)).toBe(JSON.stringify(plain));
  });
});
