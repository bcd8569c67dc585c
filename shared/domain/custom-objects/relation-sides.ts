/**
 * The two sides of a relation and its resource in domain events. Apart from relation.service.ts
 * so that the relation purge, which the stream processor runs, does not load the relation
 * schemas and zod.
 */
export type Side = 'a' | 'b';
export const sides: readonly Side[] = ['a', 'b'];
export const otherSide = (side: Side): Side => (side === 'a' ? 'b' : 'a');

export const resource = (id: string) => ({ type: 'custom_object_relation', id });
