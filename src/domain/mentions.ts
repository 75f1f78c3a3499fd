import type { Business, NamedEntity } from './content/schema.ts';
import { foldText, wholeWordMatcher } from './text.ts';

interface EntityMatcher {
  entity: NamedEntity;
  pattern: RegExp | undefined;
}

export interface MentionFinder {
  technicians(tagged: readonly string[], text: string): NamedEntity[];
  services(tagged: readonly string[], text: string): NamedEntity[];
}

/**
 * Finds the technicians and services a review mentions: those tagged in its front
 * matter plus those named in its title or text by name or alias, as whole words,
 * case- and accent-insensitive. Results keep the order of business.json.
 */
export function createMentionFinder(business: Business): MentionFinder {
  const compile = (entities: NamedEntity[]): EntityMatcher[] =>
    entities.map((entity) => ({ entity, pattern: wholeWordMatcher([entity.name, ...entity.aliases]) }));
  const technicians = compile(business.technicians);
  const services = compile(business.services);
  const find = (matchers: EntityMatcher[], tagged: readonly string[], text: string) => {
    const folded = foldText(text);
    const tags = new Set(tagged);
    return matchers
      .filter(({ entity, pattern }) => tags.has(entity.id) || (pattern !== undefined && pattern.test(folded)))
      .map(({ entity }) => entity);
  };
  return {
    technicians: (tagged, text) => find(technicians, tagged, text),
    services: (tagged, text) => find(services, tagged, text),
  };
}
