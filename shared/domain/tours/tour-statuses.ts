/**
 * Where a tour stands. Apart from tour.schema.ts and the list declarations
 * (tour.list.ts), which both need it, so that the schemas do not load the data layer.
 */
export const tourStatuses = ['PLANNED', 'IN_PROGRESS', 'DONE', 'CANCELLED'] as const;
