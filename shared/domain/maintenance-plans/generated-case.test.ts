/** What a generated case holds, and what an edit of its plan's template changes in it. */
import { describe, expect, it } from 'vitest';
import { generatedCase, withTemplate } from './generated-case.ts';
import type { MaintenancePlan } from './maintenance-plan.schema.ts';

const plan: MaintenancePlan = {
  id: '019d3a10-5b2c-7e41-8c0f-6a1d2e3f4a50',
  name: 'Boiler service',
  status: 'ACTIVE',
  case_template: {
    title: 'Boiler service',
    priority: 'HIGH',
    duration: 'PT1H30M',
    location: { latitude: 52.5, longitude: 13.4 },
  },
  rrule: 'FREQ=MONTHLY',
  dtstart: '2026-03-01T09:00:00',
  timezone: 'Europe/Berlin',
  horizon: 'P30D',
  created_at: '2026-02-20T10:00:00Z',
  updated_at: '2026-02-20T10:00:00Z',
  lock_version: 0,
};

describe('Module: generated-case', () => {
  it('makes a NEW, unplanned case of the template that names its plan and occurrence', () => {
    const made = generatedCase(plan, '2026-04-01T07:00:00Z');
    expect(made).toMatchObject({
      status: 'NEW',
      title: 'Boiler service',
      priority: 'HIGH',
      duration: 'PT1H30M',
      location: { latitude: 52.5, longitude: 13.4 },
      schedule_lock: 'NONE',
      maintenance_plan_id: plan.id,
      occurrence: '2026-04-01T07:00:00Z',
      lock_version: 0,
    });
    expect(made.created_at).toBe(made.updated_at);
    expect(made).not.toHaveProperty('scheduled_start');
    expect(made).not.toHaveProperty('assignee_id');
  });

  it('replaces the template fields of a case after an edit and keeps the rest', () => {
    const made = { ...generatedCase(plan, '2026-04-01T07:00:00Z'), assignee_id: 'someone' };
    const edited = {
      ...plan,
      case_template: { title: 'Boiler check', priority: 'NORMAL' as const, duration: 'PT1H' },
    };
    const after = withTemplate(made, edited);
    expect(after).toMatchObject({
      id: made.id,
      title: 'Boiler check',
      priority: 'NORMAL',
      duration: 'PT1H',
      assignee_id: 'someone',
      occurrence: made.occurrence,
      lock_version: 1,
    });
    // A template field the edit removed is gone from the case too.
    expect(after).not.toHaveProperty('location');
  });
});
