/**
 * The day board (GET /api/v2/scheduling/board.svg, API-DECISIONS.md "The live day"): the day as a
 * dispatcher watches it, as Dynamics 365's and Salesforce's schedule boards show it. One lane per
 * shift; in each, the shift's hours, its break windows, and each stop as two bars: the plan (from
 * its planned arrival for the case's duration) and what happened (from arrival to departure, or
 * to now while the technician is there), coloured by the stop's status; a late stop is outlined
 * red with how late it runs; a red line marks now. An SVG of its own: no network, no fonts to
 * fetch, readable in any browser and in an <img>.
 */

export const stopStatusColours: Record<string, string> = {
  PENDING: '#9e9e9e',
  EN_ROUTE: '#1f77b4',
  ARRIVED: '#ff7f0e',
  DONE: '#2ca02c',
  SKIPPED: '#8c564b',
};

export interface BoardStop {
  caseId: string;
  title: string;
  status: string;
  /** Epoch ms. */
  plannedStart?: number;
  plannedEnd?: number;
  arrivedAt?: number;
  departedAt?: number;
  /** Seconds late (absent: on time). */
  lateByS?: number;
}

export interface BoardLane {
  label: string;
  shiftStart: number;
  shiftEnd: number;
  breaks: ReadonlyArray<{ from: number; to: number }>;
  stops: readonly BoardStop[];
}

export interface BoardInput {
  date: string;
  lanes: readonly BoardLane[];
  now: number;
}

const width = 1200;
const labelWidth = 200;
const laneHeight = 56;
const top = 56;
const hourMs = 3_600_000;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The hours the board spans: the shifts' (whole hours), or 06:00–20:00 of a day without shifts. */
function span(input: BoardInput): { from: number; to: number } {
  const dayStart = Date.parse(`${input.date}T00:00:00Z`);
  if (input.lanes.length === 0) return { from: dayStart + 6 * hourMs, to: dayStart + 20 * hourMs };
  const from = Math.min(...input.lanes.map((lane) => lane.shiftStart));
  const to = Math.max(...input.lanes.map((lane) => lane.shiftEnd));
  return {
    from: Math.floor(from / hourMs) * hourMs,
    to: Math.max(Math.ceil(to / hourMs) * hourMs, from + hourMs),
  };
}

function stopBars(stop: BoardStop, y: number, x: (ms: number) => number, now: number): string {
  const colour = stopStatusColours[stop.status] ?? stopStatusColours.PENDING;
  const parts: string[] = [];
  const label = `${stop.title} (${stop.status.toLowerCase()}${stop.lateByS ? `, late ${Math.round(stop.lateByS / 60)} min` : ''})`;
  if (stop.plannedStart !== undefined) {
    const end = stop.plannedEnd ?? stop.plannedStart + 30 * 60_000;
    parts.push(
      `<rect class="planned" x="${x(stop.plannedStart).toFixed(1)}" y="${y + 8}" width="${Math.max(3, x(end) - x(stop.plannedStart)).toFixed(1)}" height="16" fill="${colour}" fill-opacity="0.25" stroke="${stop.lateByS ? '#d62728' : colour}" stroke-width="${stop.lateByS ? 2.5 : 1}"/>`,
    );
  }
  if (stop.arrivedAt !== undefined) {
    const end = stop.departedAt ?? Math.max(now, stop.arrivedAt);
    parts.push(
      `<rect class="actual" x="${x(stop.arrivedAt).toFixed(1)}" y="${y + 28}" width="${Math.max(3, x(end) - x(stop.arrivedAt)).toFixed(1)}" height="16" fill="${colour}"/>`,
    );
  }
  if (stop.lateByS) {
    const at = stop.plannedStart ?? stop.arrivedAt ?? 0;
    parts.push(
      `<text class="late-mark" x="${x(at).toFixed(1)}" y="${y + 6}" font-size="10" fill="#d62728">late +${Math.round(stop.lateByS / 60)} min</text>`,
    );
  }
  const late = stop.lateByS ? ' late' : '';
  return `<g class="stop status-${stop.status.toLowerCase()}${late}" data-case-id="${escapeXml(stop.caseId)}"><title>${escapeXml(label)}</title>${parts.join('')}</g>`;
}

export function drawBoard(input: BoardInput): string {
  const { from, to } = span(input);
  const x = (ms: number) =>
    labelWidth + ((Math.min(Math.max(ms, from), to) - from) / (to - from)) * (width - labelWidth - 20);
  const height = top + Math.max(1, input.lanes.length) * laneHeight + 70;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12" role="img" aria-label="Day board ${escapeXml(input.date)}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text class="board-title" x="12" y="22" font-size="16" font-weight="bold">Day board ${escapeXml(input.date)} (UTC)</text>`,
    '<g class="hours">',
  ];
  for (let hour = from; hour <= to; hour += hourMs) {
    out.push(
      `<line x1="${x(hour).toFixed(1)}" y1="${top - 8}" x2="${x(hour).toFixed(1)}" y2="${top + input.lanes.length * laneHeight}" stroke="#e0e0e0"/>`,
      `<text x="${x(hour).toFixed(1)}" y="${top - 12}" text-anchor="middle" fill="#555">${clock(hour)}</text>`,
    );
  }
  out.push('</g>');
  input.lanes.forEach((lane, index) => {
    const y = top + index * laneHeight;
    out.push(
      `<g class="lane"><text class="lane-label" x="12" y="${y + 30}">${escapeXml(lane.label)}</text>`,
      `<rect class="shift" x="${x(lane.shiftStart).toFixed(1)}" y="${y + 4}" width="${(x(lane.shiftEnd) - x(lane.shiftStart)).toFixed(1)}" height="${laneHeight - 8}" fill="#f5f8fc" stroke="#c8d3e0"/>`,
    );
    for (const pause of lane.breaks) {
      out.push(
        `<rect class="break" x="${x(pause.from).toFixed(1)}" y="${y + 4}" width="${Math.max(2, x(pause.to) - x(pause.from)).toFixed(1)}" height="${laneHeight - 8}" fill="#bdbdbd" fill-opacity="0.35"><title>break window ${clock(pause.from)}–${clock(pause.to)}</title></rect>`,
      );
    }
    for (const stop of lane.stops) out.push(stopBars(stop, y, x, input.now));
    out.push('</g>');
  });
  if (input.now >= from && input.now <= to) {
    out.push(
      `<rect class="now" x="${(x(input.now) - 1).toFixed(1)}" y="${top - 8}" width="2" height="${input.lanes.length * laneHeight + 8}" fill="#d62728"><title>now ${clock(input.now)}</title></rect>`,
    );
  }
  const legendY = top + Math.max(1, input.lanes.length) * laneHeight + 24;
  out.push(`<g class="legend" transform="translate(12 ${legendY})">`);
  let legendX = 0;
  for (const [status, colour] of Object.entries(stopStatusColours)) {
    out.push(
      `<rect x="${legendX}" y="-10" width="12" height="12" fill="${colour}"/><text x="${legendX + 16}" y="0">${status.toLowerCase()}</text>`,
    );
    legendX += 100;
  }
  out.push(
    `<text x="0" y="22">Upper bar: planned; lower bar: arrival to departure. Red outline: late. Grey: break windows. Red line: now. ${input.lanes.length} shifts, ${input.lanes.reduce((sum, lane) => sum + lane.stops.length, 0)} stops.</text>`,
    '</g></svg>',
  );
  return out.join('');
}
