/**
 * The workspace's settings singletons (SPEC.md rule 8: no lock_version, always last write wins):
 * the AI assistant, the MCP server, geoservices and document management. Each is read by
 * `settings:read` and changed by `settings:update` (owners and admins). A PATCH is a merge patch:
 * omitted fields keep their value; null or an unsupported value on any field is a field-level 422
 * (none of these fields can be cleared: each has a default). Before the first PATCH, reads answer
 * the defaults. Published schema names: AiAssistantSettings, UpdateAiAssistantSettings,
 * McpSettings, UpdateMcpSettings, GeoservicesSettings, UpdateGeoservicesSettings,
 * DocumentManagementSettings, UpdateDocumentManagementSettings, LiveDaySettings,
 * UpdateLiveDaySettings.
 */
import * as z from 'zod';
import { isoDuration } from '../../schema/duration.ts';
import { countryCode } from '../cases/country-code.ts';

const updatedAt = z.iso.datetime().optional().meta({
  description: 'When the settings were last changed; omitted while they are still the defaults.',
});
/**
 * The singletons have no lock_version and are always last-write-wins (SPEC.md rule 8). A client
 * that sends one anyway (as it does to every other resource) is not refused: the value is
 * checked for type and published as ignored, so nothing is ignored silently.
 */
const ignoredLockVersion = z
  .int()
  .min(0)
  .nullable()
  .optional()
  .meta({ description: 'Accepted and ignored: these settings have no lock_version; the last write wins.' });
const tenantId = z.uuid().meta({ description: 'The workspace these settings belong to.' });

// AI assistant (SPEC.md, AI assistant settings).
export const assistantModes = ['OFF', 'READ_ONLY', 'READ_WRITE'] as const;
/** The tools the assistant may call in each mode (response only). */
export const toolModeOf = { OFF: 'NONE', READ_ONLY: 'READ_ONLY_TOOLS', READ_WRITE: 'ALL_TOOLS' } as const;
const mode = z.enum(assistantModes).meta({
  description:
    'OFF (assistant disabled), READ_ONLY (read-only tools), READ_WRITE (read and write-capable tools).',
});

export const AiAssistantSettingsSchema = z
  .object({
    mode,
    enabled: z.boolean().meta({ description: 'false exactly when mode is OFF.' }),
    tool_mode: z.enum(['NONE', 'READ_ONLY_TOOLS', 'ALL_TOOLS']).meta({
      description: 'The tools the assistant may call, from mode: NONE (OFF), READ_ONLY_TOOLS, ALL_TOOLS.',
    }),
    tenant_id: tenantId,
    updated_at: updatedAt,
  })
  .meta({ id: 'AiAssistantSettings', description: 'The AI assistant of the workspace. Default mode OFF.' });

export const UpdateAiAssistantSettingsSchema = z
  .object({
    mode: mode.optional().meta({ description: 'Omit to keep; null is 422.' }),
    lock_version: ignoredLockVersion,
  })
  .meta({ id: 'UpdateAiAssistantSettings', description: 'Only `mode` is writable.' });

// MCP: the Model Context Protocol server of the workspace, for AI clients of its users.
export const mcpAccessLevels = ['READ_ONLY', 'READ_WRITE'] as const;
const httpsOrigin = z
  .string()
  .max(253)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && url.origin === value;
      } catch {
        return false;
      }
    },
    { message: 'must be an https origin without path, e.g. https://claude.ai' },
  );

export const McpSettingsSchema = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether the workspace’s MCP server answers. Default false.' }),
    access: z.enum(mcpAccessLevels).meta({
      description:
        'READ_ONLY: MCP clients may only read; READ_WRITE: they may also change records. Default READ_ONLY.',
    }),
    allowed_origins: z.array(z.string()).meta({
      description: 'Browser origins allowed to call the MCP server (CORS); empty: none. Default empty.',
    }),
    tenant_id: tenantId,
    updated_at: updatedAt,
  })
  .meta({ id: 'McpSettings', description: 'The workspace’s MCP server for AI clients.' });

export const UpdateMcpSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    access: z.enum(mcpAccessLevels).optional(),
    allowed_origins: z
      .array(httpsOrigin)
      .max(20)
      .optional()
      .meta({ description: 'Up to 20 https origins (scheme and host[:port], no path); replaces the list.' }),
    lock_version: ignoredLockVersion,
  })
  .meta({ id: 'UpdateMcpSettings', description: 'Merge patch; null on any field is 422.' });

// Geoservices: geocoding of addresses and routing of tours.
/**
 * Closed and published: values are only ever added (SPEC.md, Versioning). AMAZON_LOCATION came
 * with optimization runs (travel times from Amazon Location route matrices on AWS).
 */
export const geoProviders = ['OPENSTREETMAP', 'GOOGLE', 'HERE', 'MAPBOX', 'AMAZON_LOCATION'] as const;
export const distanceUnits = ['KILOMETERS', 'MILES'] as const;

export const GeoservicesSettingsSchema = z
  .object({
    provider: z.enum(geoProviders).meta({
      description:
        'Geocoding and routing provider. Default OPENSTREETMAP. AMAZON_LOCATION (added with optimization ' +
        'runs; clients must accept values they do not know yet): with is_routing_enabled, optimization runs ' +
        'on AWS take travel times from Amazon Location route matrices (elsewhere, and for every other ' +
        'provider, the great-circle model).',
    }),
    is_geocoding_enabled: z.boolean().meta({ description: 'Addresses of cases are geocoded. Default true.' }),
    is_routing_enabled: z
      .boolean()
      .meta({ description: 'Tours get drive times and distances. Default true.' }),
    distance_unit: z
      .enum(distanceUnits)
      .meta({ description: 'Unit distances are shown in. Default KILOMETERS.' }),
    default_country: z.string().meta({
      description: 'ISO 3166-1 alpha-2 country assumed for addresses without one. Default DE.',
    }),
    tenant_id: tenantId,
    updated_at: updatedAt,
  })
  .meta({ id: 'GeoservicesSettings', description: 'Geocoding and routing of the workspace.' });

export const UpdateGeoservicesSettingsSchema = z
  .object({
    provider: z.enum(geoProviders).optional(),
    is_geocoding_enabled: z.boolean().optional(),
    is_routing_enabled: z.boolean().optional(),
    distance_unit: z.enum(distanceUnits).optional(),
    default_country: countryCode().optional().meta({ description: 'ISO 3166-1 alpha-2, any case.' }),
    lock_version: ignoredLockVersion,
  })
  .meta({ id: 'UpdateGeoservicesSettings', description: 'Merge patch; null on any field is 422.' });

// Document management: files attached to records.
export const documentTypes = ['PDF', 'PNG', 'JPEG', 'DOCX', 'XLSX', 'TXT'] as const;
export const maxDocumentSizeMb = 100;

export const DocumentManagementSettingsSchema = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether files can be attached to records. Default true.' }),
    max_file_size_mb: z
      .int()
      .min(1)
      .max(maxDocumentSizeMb)
      .meta({
        description: `Largest file accepted, in MiB, 1..${maxDocumentSizeMb}. Default 25.`,
      }),
    allowed_file_types: z.array(z.enum(documentTypes)).meta({
      description: `File types accepted (${documentTypes.join(', ')}). Default all.`,
    }),
    retention_days: z.int().min(0).max(3650).meta({
      description:
        'Days a file is kept after its record was deleted, 0..3650; 0 deletes it with the record. Default 30.',
    }),
    tenant_id: tenantId,
    updated_at: updatedAt,
  })
  .meta({ id: 'DocumentManagementSettings', description: 'Files attached to the workspace’s records.' });

export const UpdateDocumentManagementSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    max_file_size_mb: z.int().min(1).max(maxDocumentSizeMb).optional(),
    allowed_file_types: z
      .array(z.enum(documentTypes))
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'At least one type; duplicates are collapsed; replaces the list.' }),
    retention_days: z.int().min(0).max(3650).optional(),
    lock_version: ignoredLockVersion,
  })
  .meta({ id: 'UpdateDocumentManagementSettings', description: 'Merge patch; null on any field is 422.' });

// The live day: how arrivals and departures are told from telemetry (API-DECISIONS.md).
export const arrivalRadiusBounds = { min: 25, max: 2000 } as const;
export const dwellBounds = { minSeconds: 30, maxSeconds: 1800 } as const;
const arrivalRadius = z.int().min(arrivalRadiusBounds.min).max(arrivalRadiusBounds.max);
const arrivalRadiusAbout =
  `Metres from a case's location within which a technician counts as there, ${arrivalRadiusBounds.min}..` +
  `${arrivalRadiusBounds.max}. Leaving is judged against a wider circle (radius × 1.5, at least 50 m more), ` +
  'so positions scattering along the edge never flap. Default 150.';
const dwellAbout =
  'How long positions must stay within the radius to mark an arrival, and beyond the wider circle to mark ' +
  'the departure (ISO 8601 duration, PT30S..PT30M). Default PT2M.';

export const LiveDaySettingsSchema = z
  .object({
    arrival_radius_m: arrivalRadius.meta({ description: arrivalRadiusAbout }),
    dwell: z.string().meta({ description: dwellAbout, format: 'duration', example: 'PT2M' }),
    tenant_id: tenantId,
    updated_at: updatedAt,
  })
  .meta({
    id: 'LiveDaySettings',
    description: 'How tour stops are marked arrived and departed from the telemetry of technicians’ devices.',
  });

export const UpdateLiveDaySettingsSchema = z
  .object({
    arrival_radius_m: arrivalRadius.optional().meta({ description: arrivalRadiusAbout }),
    dwell: isoDuration({ ...dwellBounds, example: 'PT3M' })
      .optional()
      .meta({ description: dwellAbout }),
    lock_version: ignoredLockVersion,
  })
  .meta({ id: 'UpdateLiveDaySettings', description: 'Merge patch; null on any field is 422.' });
