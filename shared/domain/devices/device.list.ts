import type { ListSpec } from '../../data/list-index.ts';
import { byChange, byCreation, collectionOf, maxTokenChars } from '../../data/list-patterns.ts';
import { foldedText, foldedWord } from '../../data/sort-key.ts';
import type { StoredDevice } from './device.schema.ts';
import { deviceKinds } from './device-kinds.ts';

/** A device's model as its facet value: folded (case and accents ignored), numbers as typed. */
export const deviceModelFacetValue = (model: string | undefined) =>
  model === undefined ? undefined : foldedWord(model.trim()).slice(0, 128);

/** Words of the description that are searchable (its first ones): the tokens join the write's transaction. */
const descriptionWords = 8;

/**
 * Search tokens of a device: model, identity and phone number whole, their words, the phone
 * number's digits without `+`, then the first words of the description; folded, at most 24.
 */
export function deviceTokens(
  record: Pick<StoredDevice, 'device_model' | 'device_identity_id' | 'phone_number' | 'description'>,
): string[] {
  const words = (value: string | undefined) =>
    foldedWord((value ?? '').trim())
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const whole = [record.device_model, record.device_identity_id].map((value) =>
    foldedWord((value ?? '').trim()),
  );
  const phone = record.phone_number ? [record.phone_number, record.phone_number.replace(/^\+/, '')] : [];
  const tokens = [
    ...whole,
    ...phone,
    ...words(record.device_model),
    ...words(record.device_identity_id),
    ...words(record.description).slice(0, descriptionWords),
  ]
    .filter(Boolean)
    .map((token) => token.slice(0, maxTokenChars));
  return [...new Set(tokens)].slice(0, 24);
}

/** Devices without a model or identity come last in ascending order. */
const lastWhenAbsent = (value: string | undefined) => [value ? foldedText(value) : '\u{10FFFF}'];

/**
 * Devices: a fleet has thousands of trackers. kind is the segment (the kind filter and sort cost
 * nothing); every sort key an index; a model is a facet (its folded value's own partitions and
 * counters), so `model` (a substring) walks the partitions of the models that contain it, found
 * from the model counters; has_location a counter (`located`); search tokens. The bounding box
 * is the geographic index of the devices' states (device-state.store.ts), not a list of this spec.
 */
export const deviceList: ListSpec<StoredDevice> = {
  name: 'DEVICE',
  listed: () => true,
  segment: { values: deviceKinds, of: (record) => record.kind },
  orders: {
    natural_id: { pattern: 'byNumber', index: 'gsi6', key: (record) => record.natural_id },
    device_model: { pattern: 'byModel', index: 'gsi1', key: (record) => lastWhenAbsent(record.device_model) },
    device_identity_id: {
      pattern: 'byIdentity',
      index: 'gsi3',
      key: (record) => lastWhenAbsent(record.device_identity_id),
    },
    kind: {
      pattern: 'byKind',
      index: 'gsi4',
      key: (record) => [String(deviceKinds.indexOf(record.kind))],
      segmentOrder: { within: 'created_at' },
    },
    created_at: byCreation(),
    updated_at: byChange(),
  },
  facets: {
    model: { index: 'gsi2', order: 'created_at', of: (record) => deviceModelFacetValue(record.device_model) },
  },
  counters: (record) => (record.has_location ? ['located'] : []),
  tokens: deviceTokens,
  listedValues: (record) => ({
    natural_id: record.natural_id,
    kind: record.kind,
    device_model: record.device_model,
    device_identity_id: record.device_identity_id,
    has_location: record.has_location ? 1 : 0,
  }),
  basePartition: collectionOf('DEVICE'),
};
