/** The run map: one coloured, numbered route per shift, the cases left out marked, valid SVG. */
import { describe, expect, it } from 'vitest';
import { colourOfRoute, runMapSvg } from './run-map.ts';

const depot = { latitude: 52.52, longitude: 13.405 };
const at = (dLat: number, dLon: number) => ({
  latitude: depot.latitude + dLat,
  longitude: depot.longitude + dLon,
});

describe('Function: runMapSvg', () => {
  const svg = runMapSvg({
    title: 'Run <1> & plan',
    routes: [
      {
        label: 'Theo',
        start: depot,
        end: depot,
        stops: [
          { caseId: 'c1', place: at(0.01, 0), title: 'Boiler' },
          { caseId: 'c2', place: at(0.02, 0.01), title: 'Valve' },
        ],
        distanceMetres: 5400,
      },
      {
        label: 'Ada',
        start: depot,
        end: depot,
        stops: [{ caseId: 'c3', place: at(-0.01, 0), title: 'Pump' }],
        distanceMetres: 2100,
      },
    ],
    unassigned: [
      { caseId: 'c4', place: at(0.05, 0.05), reason: 'NO_CAPACITY' },
      { caseId: 'c5', reason: 'NO_LOCATION' },
    ],
  });

  it('draws each route in its own colour with its stops numbered in order', () => {
    expect(svg.match(/<g class="route"/g)).toHaveLength(2);
    expect(svg).toContain(`stroke="${colourOfRoute(0)}"`);
    expect(svg).toContain(`stroke="${colourOfRoute(1)}"`);
    expect(svg.match(/<g class="stop"/g)).toHaveLength(3);
    expect(svg).toMatch(/data-case-id="c2".*>2<\/text>/);
  });

  it('marks the cases left out that have a place, and counts all of them in the legend', () => {
    expect(svg.match(/<g class="unassigned"/g)).toHaveLength(1);
    expect(svg).toContain('Not planned: NO_CAPACITY');
    expect(svg).toContain('× 2 cases not planned');
    expect(svg).toContain('Theo: 2 stops, 5.4 km');
  });

  it('escapes text and keeps every point on the page', () => {
    expect(svg).toContain('Run &lt;1&gt; &amp; plan');
    const points = [...svg.matchAll(/c[xy]="(-?[\d.]+)"/g)].map((m) => Number(m[1]));
    for (const value of points) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(960);
    }
  });

  it('draws an empty plan without failing', () => {
    expect(runMapSvg({ title: 'Empty', routes: [], unassigned: [] })).toContain('Every case is planned.');
  });
});
