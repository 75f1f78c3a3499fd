/**
 * The names an agent needs to fill in arguments, written into the tool
 * descriptions from this build's business data: technicians (id, name, aliases),
 * services (id, name) and service areas. Long lists are cut short with a pointer
 * to get_business, which has them all.
 */
import type { ReviewsDataset } from '../../../domain/schemas/datasets.ts';

type Business = ReviewsDataset['business'];

const SHOWN = 40;

function listed(items: readonly string[], what: string): string {
  if (items.length === 0) return `This business lists no ${what}.`;
  const shown = items.slice(0, SHOWN).join('; ');
  const more = items.length > SHOWN ? `; and ${items.length - SHOWN} more (see get_business)` : '';
  return `${shown}${more}.`;
}

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');

export function techniciansText(business: Business): string {
  return listed(
    business.technicians.map((t) => `${t.name} (id ${t.id}${t.aliases.length ? `, also ${quoted(t.aliases)}` : ''})`),
    'technicians',
  );
}

export function servicesText(business: Business): string {
  return listed(
    business.services.map((s) => `${s.id} (${s.name})`),
    'services',
  );
}

export function serviceAreasText(business: Business): string {
  return listed(
    business.service_areas.map((a) => `${a.id} (${a.name})`),
    'service areas',
  );
}
