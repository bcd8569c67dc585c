/**
 * Geohash cells for the bounding-box filter on devices' latest locations (GET /api/v2/devices
 * with min_lat, min_lon, max_lat, max_lon). Each device's latest location is stored with its
 * cell (`cellOf`); a box query turns into a few cell prefixes (`coveringPrefixes`), each one a
 * key-prefix query on the index, and `inBox` drops the candidates of the border cells that lie
 * outside the box.
 *
 * A geohash prefix is itself a cell (the one containing every longer hash that starts with it),
 * so one stored precision serves boxes of any size: a small box is covered by a few long
 * prefixes, a continent by a few short ones. The cover is the rectangle of cells between the
 * box's corner cells; its count is known before it is listed, which picks the longest length
 * that stays within the query budget.
 */
import ngeohash from 'ngeohash';

/** Characters stored per device: cells of about 150 m × 150 m. */
export const cellPrecision = 7;

/** The geohash of a WGS 84 position, `cellPrecision` characters long. */
export function cellOf(latitude: number, longitude: number): string {
  return ngeohash.encode(latitude, longitude, cellPrecision);
}

/** A WGS 84 box, edges inclusive. minLon > maxLon means the box crosses the antimeridian. */
export interface Box {
  minLat: number;
  minLon: number;
  maxLat: number;
  maxLon: number;
}

/**
 * Geohash prefixes, all of one length, whose cells together cover the box: every point inside
 * it has a `cellOf` that starts with one of them. The length is the longest (at most
 * `cellPrecision`, at least 1) whose cover has at most `maxPrefixes` cells, so the index is read
 * in at most that many queries, each with as little outside the box as the budget allows. A box
 * crossing the antimeridian is the union of [minLon, 180] and [-180, maxLon], covered within
 * the same budget. Sorted, without duplicates.
 */
export function coveringPrefixes(box: Box, maxPrefixes = 32): string[] {
  checkBox(box);
  let chosen = cover(box, 1);
  for (let length = 2; length <= cellPrecision; length++) {
    const next = cover(box, length);
    if (next.rows.length * next.columns.length > maxPrefixes) break;
    chosen = next;
  }
  const { length, rows, columns } = chosen;
  const { latHeight, lonWidth } = cellSize(length);
  const prefixes: string[] = [];
  // Encoding each cell's centre names it without any boundary rounding.
  for (const row of rows) {
    for (const column of columns) {
      prefixes.push(ngeohash.encode(-90 + (row + 0.5) * latHeight, -180 + (column + 0.5) * lonWidth, length));
    }
  }
  return prefixes.sort();
}

/** Whether a position lies in the box, edges included; a box may cross the antimeridian. */
export function inBox(latitude: number, longitude: number, box: Box): boolean {
  if (latitude < box.minLat || latitude > box.maxLat) return false;
  return box.minLon <= box.maxLon
    ? longitude >= box.minLon && longitude <= box.maxLon
    : longitude >= box.minLon || longitude <= box.maxLon;
}

interface Cover {
  length: number;
  /** Row indexes (south to north) of the cells, one per latitude band. */
  rows: number[];
  /** Column indexes (west to east) of the cells, without duplicates. */
  columns: number[];
}

/** The cells of `length` characters between the box's corner cells, as rows × columns. */
function cover(box: Box, length: number): Cover {
  const south = indexes(box.minLat, box.minLon, length);
  const north = indexes(box.maxLat, box.maxLon, length);
  const west = south.column;
  const east = north.column;
  const { columnCount } = cellSize(length);
  const columns = new Set<number>();
  if (box.minLon <= box.maxLon) {
    for (let column = west; column <= east; column++) columns.add(column);
  } else {
    // [minLon, 180] then [-180, maxLon]; when they meet, every column.
    for (let column = west; column < columnCount; column++) columns.add(column);
    for (let column = 0; column <= east && columns.size < columnCount; column++) columns.add(column);
  }
  const rows: number[] = [];
  for (let row = south.row; row <= north.row; row++) rows.push(row);
  return { length, rows, columns: [...columns].sort((a, b) => a - b) };
}

/**
 * Row and column of the cell that `cellOf` would put a position in, taken from the library's
 * own encoding so that positions on a cell border land where stored locations land.
 */
function indexes(latitude: number, longitude: number, length: number): { row: number; column: number } {
  const [minLat, minLon] = ngeohash.decode_bbox(ngeohash.encode(latitude, longitude, length));
  const { latHeight, lonWidth } = cellSize(length);
  return { row: Math.round((minLat + 90) / latHeight), column: Math.round((minLon + 180) / lonWidth) };
}

/** A geohash character holds 5 bits, alternately longitude and latitude, longitude first. */
function cellSize(length: number) {
  const lonBits = Math.ceil((5 * length) / 2);
  const latBits = Math.floor((5 * length) / 2);
  return {
    columnCount: 2 ** lonBits,
    lonWidth: 360 / 2 ** lonBits,
    latHeight: 180 / 2 ** latBits,
  };
}

function checkBox(box: Box): void {
  const { minLat, minLon, maxLat, maxLon } = box;
  const latitudes = [minLat, maxLat].every((value) => value >= -90 && value <= 90);
  const longitudes = [minLon, maxLon].every((value) => value >= -180 && value <= 180);
  if (!latitudes || !longitudes || minLat > maxLat) {
    throw new RangeError(`not a box: ${JSON.stringify(box)}`);
  }
}
