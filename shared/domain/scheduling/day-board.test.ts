import { describe, expect, it } from 'vitest';
import { drawBoard } from './day-board.ts';

const at = (time: string) => Date.parse(`2026-06-16T${time}:00Z`);

describe('Function: drawBoard', () => {
  const svg = drawBoard({
    date: '2026-06-16',
    now: at('10:30'),
    lanes: [
      {
        label: 'Anna Berg 08:00–16:00',
        shiftStart: at('08:00'),
        shiftEnd: at('16:00'),
        breaks: [{ from: at('12:00'), to: at('13:00') }],
        stops: [
          {
            caseId: 'c1',
            title: 'Boiler <A&B>',
            status: 'DONE',
            plannedStart: at('08:30'),
            plannedEnd: at('09:30'),
            arrivedAt: at('08:40'),
            departedAt: at('09:50'),
          },
          {
            caseId: 'c2',
            title: 'Meter',
            status: 'ARRIVED',
            plannedStart: at('10:00'),
            plannedEnd: at('10:30'),
            arrivedAt: at('10:20'),
          },
          {
            caseId: 'c3',
            title: 'Pump',
            status: 'PENDING',
            plannedStart: at('11:00'),
            plannedEnd: at('12:00'),
            lateByS: 900,
          },
        ],
      },
      {
        label: 'Ben Kraus 07:00–15:00',
        shiftStart: at('07:00'),
        shiftEnd: at('15:00'),
        breaks: [],
        stops: [],
      },
    ],
  });

  it('draws a lane per shift with its break window and each stop as a planned and an actual bar', () => {
    expect(svg.match(/<g class="lane">/g)).toHaveLength(2);
    expect(svg.match(/class="break"/g)).toHaveLength(1);
    expect(svg.match(/class="planned"/g)).toHaveLength(3);
    // Only stops the technician reached have an actual bar.
    expect(svg.match(/class="actual"/g)).toHaveLength(2);
    expect(svg).toContain('class="stop status-done"');
  });

  it('marks a late stop and draws now inside the day, with the hours from the earliest shift', () => {
    expect(svg).toContain('class="stop status-pending late"');
    expect(svg).toContain('late +15 min');
    expect(svg).toContain('class="now"');
    expect(svg).toContain('>07:00</text>');
    expect(svg).toContain('>16:00</text>');
  });

  it('escapes titles, and draws an empty day without a now line outside its hours', () => {
    expect(svg).toContain('Boiler &lt;A&amp;B&gt;');
    const empty = drawBoard({ date: '2026-06-16', now: at('23:00'), lanes: [] });
    expect(empty).not.toContain('class="now"');
    expect(empty).toContain('0 shifts, 0 stops');
  });
});
