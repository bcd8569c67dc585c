/**
 * Which travel adapter (shared/domain/scheduling/travel.ts) a run uses: Amazon Location route
 * matrices when the workspace's geoservices settings route (`is_routing_enabled`) with the
 * AMAZON_LOCATION provider and the deployment has that adapter (the solver function on AWS;
 * the wiring passes it), else the great-circle model. The run records which (`travel_model`),
 * so a plan computed locally for an AMAZON_LOCATION workspace says it used great-circle travel.
 */

import { greatCircleTravel, type TravelPort } from '../scheduling/travel.ts';
import { settingsStore } from '../settings/settings.store.ts';

export interface TravelAdapters {
  amazonLocation?: TravelPort;
}

export async function travelPortFor(workspaceId: string, adapters: TravelAdapters): Promise<TravelPort> {
  if (!adapters.amazonLocation) return greatCircleTravel;
  const settings = await settingsStore.of(workspaceId).get('geoservices');
  // Stored names (settings.service.ts): routing_enabled defaults to true.
  const routes = settings?.provider === 'AMAZON_LOCATION' && settings.routing_enabled !== false;
  return routes ? adapters.amazonLocation : greatCircleTravel;
}
