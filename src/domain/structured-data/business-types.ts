/**
 * The schema.org types a business may name in business.json (`schema_type`): the
 * kinds of local business a reviews site like this one serves. The JSON-LD of the
 * pages uses the one named, or LocalBusiness, the type every one of them refines.
 */
export const BUSINESS_TYPES = [
  'LocalBusiness',
  'HomeAndConstructionBusiness',
  'RoofingContractor',
  'GeneralContractor',
  'Electrician',
  'HVACBusiness',
  'HousePainter',
  'Locksmith',
  'MovingCompany',
  'Plumber',
  'ProfessionalService',
  'AutomotiveBusiness',
  'HealthAndBeautyBusiness',
  'FoodEstablishment',
  'Store',
] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

export const DEFAULT_BUSINESS_TYPE: BusinessType = 'LocalBusiness';

/** The type business.json names, if it is one of BUSINESS_TYPES (the content check refuses others), else LocalBusiness. */
export function businessTypeOf(business: { schema_type?: unknown }): BusinessType {
  const named = business.schema_type;
  return typeof named === 'string' && (BUSINESS_TYPES as readonly string[]).includes(named) ? (named as BusinessType) : DEFAULT_BUSINESS_TYPE;
}
