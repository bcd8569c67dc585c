/**
 * A run's plan as a picture (GET …/optimization-runs/{run_id}/map.svg): each route in its own
 * colour from its shift's start through its numbered stops to its end, the cases left out as grey
 * crosses, and a legend. No map tiles and no network: coordinates are projected onto the page
 * (longitude scaled by the cosine of the middle latitude, so short distances keep their shape),
 * which is what a dispatcher needs to see whether routes cross, overlap or wander.
 */
import type { Place } from './travel.ts';

export interface MapRoute {
  label: string;
  start: Place;
  end: Place;
  stops: ReadonlyArray<{ caseId: string; place: Place; title: string }>;
  distanceMetres: number;
}

export interface MapInput {
  title: string;
  routes: readonly MapRoute[];
  unassigned: ReadonlyArray<{ caseId: string; place?: Place; reason: string }>;
}

/** Twelve colours that stay apart for people with the common colour-vision deficiencies too. */
const palette = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#393b79',
  '#ad494a',
  '#637939',
];

export const colourOfRoute = (index: number) => palette[index % palette.length] as string;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

const width = 960;
const mapHeight = 640;
const margin = 40;
const legendLine = 22;

interface Projection {
  x(place: Place): number;
  y(place: Place): number;
}

function projection(places: readonly Place[]): Projection {
  const lats = places.map((p) => p.latitude);
  const lons = places.map((p) => p.longitude);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLon, maxLon] = [Math.min(...lons), Math.max(...lons)];
  const squeeze = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLon - minLon) * squeeze, 1e-6);
  const spanY = Math.max(maxLat - minLat, 1e-6);
  const scale = Math.min((width - 2 * margin) / spanX, (mapHeight - 2 * margin) / spanY);
  const offsetX = (width - spanX * scale) / 2;
  const offsetY = (mapHeight - spanY * scale) / 2;
  return {
    x: (p) => Math.round((offsetX + (p.longitude - minLon) * squeeze * scale) * 10) / 10,
    y: (p) => Math.round((offsetY + (maxLat - p.latitude) * scale) * 10) / 10,
  };
}

function routeLayer(route: MapRoute, index: number, at: Projection): string {
  const colour = colourOfRoute(index);
  const path = [route.start, ...route.stops.map((stop) => stop.place), route.end]
    .map((place) => `${at.x(place)},${at.y(place)}`)
    .join(' ');
  const depot = `<rect class="depot" x="${at.x(route.start) - 7}" y="${at.y(route.start) - 7}" width="14" height="14" fill="${colour}" stroke="#fff" stroke-width="2"><title>${escapeXml(`${route.label}: start`)}</title></rect>`;
  const stops = route.stops
    .map(
      (stop, n) =>
        `<g class="stop" data-case-id="${escapeXml(stop.caseId)}"><circle cx="${at.x(stop.place)}" cy="${at.y(stop.place)}" r="10" fill="${colour}" stroke="#fff" stroke-width="2"/>` +
        `<text x="${at.x(stop.place)}" y="${at.y(stop.place) + 4}" text-anchor="middle" font-size="11" font-weight="bold" fill="#fff">${n + 1}</text>` +
        `<title>${escapeXml(`${n + 1}. ${stop.title}`)}</title></g>`,
    )
    .join('');
  return `<g class="route" data-route="${index}"><polyline points="${path}" fill="none" stroke="${colour}" stroke-width="3" stroke-linejoin="round" opacity="0.8"/>${depot}${stops}</g>`;
}

function unassignedLayer(input: MapInput, at: Projection): string {
  return input.unassigned
    .filter((entry) => entry.place)
    .map((entry) => {
      const [x, y] = [at.x(entry.place as Place), at.y(entry.place as Place)];
      return (
        `<g class="unassigned" data-case-id="${escapeXml(entry.caseId)}"><path d="M${x - 7},${y - 7} L${x + 7},${y + 7} M${x - 7},${y + 7} L${x + 7},${y - 7}" stroke="#777" stroke-width="3"/>` +
        `<title>${escapeXml(`Not planned: ${entry.reason}`)}</title></g>`
      );
    })
    .join('');
}

function legend(input: MapInput, top: number): string {
  const lines = input.routes.map((route, index) => {
    const y = top + index * legendLine;
    const km = (route.distanceMetres / 1000).toFixed(1);
    return (
      `<rect x="${margin}" y="${y - 11}" width="14" height="14" fill="${colourOfRoute(index)}"/>` +
      `<text x="${margin + 22}" y="${y}" font-size="13">${escapeXml(`${route.label}: ${route.stops.length} stops, ${km} km`)}</text>`
    );
  });
  const y = top + input.routes.length * legendLine;
  const left = input.unassigned.length;
  lines.push(
    `<text x="${margin}" y="${y}" font-size="13" fill="#555">${left === 0 ? 'Every case is planned.' : `× ${left} case${left === 1 ? '' : 's'} not planned`}</text>`,
  );
  return `<g class="legend">${lines.join('')}</g>`;
}

export function runMapSvg(input: MapInput): string {
  const places = [
    ...input.routes.flatMap((route) => [route.start, route.end, ...route.stops.map((stop) => stop.place)]),
    ...input.unassigned.flatMap((entry) => (entry.place ? [entry.place] : [])),
  ];
  const at = projection(places.length > 0 ? places : [{ latitude: 0, longitude: 0 }]);
  const height = mapHeight + (input.routes.length + 2) * legendLine + margin;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" role="img" aria-label="${escapeXml(input.title)}">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fafafa"/>`,
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${mapHeight}" fill="#fff" stroke="#ddd"/>`,
    ...input.routes.map((route, index) => routeLayer(route, index, at)),
    unassignedLayer(input, at),
    legend(input, mapHeight + legendLine + 8),
    '</svg>',
  ].join('\n');
}
