/**
 * The OpenAPI tags, declared once with what each groups. A route may only use a tag listed
 * here (RouteSpec.tags is typed by this catalog), so the document never uses an undeclared tag.
 */
export const apiTags = {
  Areas: 'Service regions of the workspace, described by postal-code ranges and shown in a colour.',
  Tags: 'Labels with a colour that users (and later other records) carry; usage_count says how many.',
  Users:
    'People of the workspace: invitation, roles, skills, tags and their lifecycle (activate, deactivate, unblock).',
  Roles:
    'The fixed role catalog (owner, admin, dispatcher, technician, driver) with the grants of each role.',
  'Current user': 'The caller of a request: its own record and its password.',
  Skills: 'Skill definitions of the workspace, offered by users.',
  Tenant: 'The workspace’s own record: name, language, region, time zone, logo and favicon.',
  'Custom objects': 'Record types a workspace defines with JSON Schema; they also shape its GraphQL API.',
  GraphQL:
    'The read-only GraphQL API of the workspace, generated from its custom-object definitions and relations.',
  Settings:
    'The workspace’s settings singletons: AI assistant, MCP server, geoservices, document management and the live day (last write wins).',
  Devices:
    'Technician apps, third-party apps and GPS trackers: the registry, setup codes and SMS, intake secrets, ' +
    'telemetry intake and each device’s current state.',
  Vehicles: 'The fleet: vehicles tours are driven with, and the latest location each one reported.',
  Tours: "A vehicle's and its driver's run through an ordered list of case stops on one day.",
  Shifts:
    'Working hours of technicians and drivers: start and end, where they start and finish, the vehicle and the ' +
    'breaks; optimization runs and appointment slots plan into them.',
  Scheduling:
    'Planning work into shifts: optimization runs that plan cases into routes off the request path, their ' +
    'map, and applying a plan as tours and scheduled cases.',
  Cases:
    'Work orders: what is to be done, where, by whom and when, how urgent, how far it got, and its ERP/CRM reference.',
  'Maintenance plans':
    'Recurring work: a case template, an RFC 5545 recurrence in a time zone and a horizon; the service keeps ' +
    'one case per occurrence of the horizon generated.',
  Comments:
    'Threads of comments on any record (cases, tours, vehicles, devices, areas, users, custom objects): replies, ' +
    'reactions, mentions, attachments, read markers and unread counts.',
  'Offline sync':
    'What a technician’s app keeps on the device: a pull of its scope by signed cursor (what changed since, ' +
    'what left, what was deleted) and an idempotent push of what was done offline, merged by field.',
  Events: 'The server-sent event stream of live operations (cases, tours, vehicles, areas).',
  'Audit logs': 'Every change of the workspace, newest first, written from the outbox of each write.',
  Webhooks:
    'Endpoints that receive signed event deliveries, the event catalog they subscribe from, test sends and delivery failures.',
  Billing:
    "Who the workspace is billed to (the billing profile), the payment provider's portal and payment-method " +
    'sessions, and the recheck that sets or lifts the billing lock. Owners and admins only.',
  Admin: 'The platform operator control plane (/admin-v1): workspaces, their state and their API clients.',
  Platform: 'Health, this document, its reference page and the problem type descriptions. No token needed.',
} as const;

export type ApiTag = keyof typeof apiTags;
