/**
 * Prompts an owner or analyst would pick in a chat client, each built on the tools:
 * the message says which calls answer it, with the arguments filled in. Their
 * arguments, and the review template's id, are completed from this build's data
 * (completion/complete): technicians, services, aspects, review ids, by prefix.
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { namedIds, normalizeName, type ReviewCatalog } from '../../domain/catalog/review-catalog.ts';
import { quoteValue } from '../../domain/catalog/query-issues.ts';
import { isIsoDate } from '../../domain/dates.ts';
import { ASPECTS } from '../../domain/schemas/review.ts';
import { INVALID_PARAMS, ProtocolError } from './protocol-error.ts';

export interface PromptSet {
  readonly list: readonly Prompt[];
  get(name: string, args: Record<string, unknown>): GetPromptResult;
  /** Completion values for an argument of a prompt (or of the review template): what starts with `prefix`. */
  complete(ref: { type: string; name?: string; uri?: string }, argument: string, prefix: string): string[];
}

/** A subject of feedback: an aspect, a service or a technician, as the data names them. */
interface Subject {
  kind: 'aspect' | 'service' | 'technician';
  id: string;
  name: string;
}

/**
 * The subject a value names: an aspect id, else a service or a technician by any
 * spelling search accepts (namedIds). A name two technicians share is the first's.
 */
function subjectNamed(catalog: ReviewCatalog, value: string): Subject | undefined {
  const aspect = ASPECTS.find((id) => id === normalizeName(value));
  if (aspect) return { kind: 'aspect', id: aspect, name: aspect };
  for (const kind of ['service', 'technician'] as const) {
    const [id] = namedIds(catalog.index, kind, value);
    const entity = (kind === 'service' ? catalog.business.services : catalog.business.technicians).find((e) => e.id === id);
    if (entity) return { kind, id: entity.id, name: entity.name };
  }
  return undefined;
}

/** Every value the subject takes, for completion: aspect ids, and the ids, names and aliases of services and technicians. */
function subjectValues(catalog: ReviewCatalog): string[] {
  const { services, technicians } = catalog.business;
  return [...new Set([...ASPECTS, ...[...services, ...technicians].flatMap((e) => [e.id, e.name, ...e.aliases])])];
}

const text = (value: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: value } });

/** Most values one completion answers with (the MCP limit). */
const MAX_COMPLETIONS = 100;

export function promptSet(catalog: ReviewCatalog): PromptSet {
  const subjectNames = subjectValues(catalog);
  const stringArg = (prompt: string, args: Record<string, unknown>, name: string, required: boolean): string | undefined => {
    const value = args[name];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new ProtocolError(INVALID_PARAMS, `Invalid arguments for prompt ${prompt}: ${name} must be a non-empty string.`);
    return value.trim();
  };
  // Checked as search_reviews checks them (a real calendar date, since not after until), so that the
  // prompt never writes into its instructions a call that the tool would refuse.
  const dateArg = (prompt: string, args: Record<string, unknown>, name: string) => {
    const value = stringArg(prompt, args, name, false);
    if (value !== undefined && !isIsoDate(value)) {
      throw new ProtocolError(INVALID_PARAMS, `Invalid arguments for prompt ${prompt}: ${name} must be a real calendar date written YYYY-MM-DD, e.g. 2024-03-12; got ${quoteValue(value)}.`);
    }
    return value;
  };
  const dateRange = (prompt: string, args: Record<string, unknown>) => {
    const since = dateArg(prompt, args, 'since');
    const until = dateArg(prompt, args, 'until');
    if (since !== undefined && until !== undefined && since > until) {
      throw new ProtocolError(INVALID_PARAMS, `Invalid arguments for prompt ${prompt}: since must not be after until (${until}); swap them or widen the range; got ${quoteValue(since)}.`);
    }
    return { since, until };
  };

  const list: Prompt[] = [
    {
      name: 'customer_feedback',
      title: 'What customers praise and criticise',
      description: 'What the verified reviews praise and criticise about one aspect (e.g. cleanup), service or technician, over a period.',
      arguments: [
        { name: 'subject', description: 'An aspect id, or a service or technician by id, name or alias (completion lists them).', required: true },
        { name: 'since', description: 'First day, YYYY-MM-DD (optional).', required: false },
        { name: 'until', description: 'Last day, YYYY-MM-DD (optional).', required: false },
      ],
    },
    {
      name: 'draft_reply',
      title: 'Draft a reply to a review',
      description: "Draft the owner's public reply to one review, by its id.",
      arguments: [{ name: 'review_id', description: 'The id of the review (completion lists ids by prefix).', required: true }],
    },
  ];

  function customerFeedback(args: Record<string, unknown>): GetPromptResult {
    const given = stringArg('customer_feedback', args, 'subject', true) as string;
    const subject = subjectNamed(catalog, given);
    if (!subject) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `Invalid arguments for prompt customer_feedback: subject ${JSON.stringify(given.slice(0, 60))} is no aspect, service or technician of this business; ` +
          `they are ${subjectNames.slice(0, 40).join(', ')}${subjectNames.length > 40 ? ', …' : ''}.`,
      );
    }
    const { since, until } = dateRange('customer_feedback', args);
    const period = since || until ? ` between ${since ?? 'the first review'} and ${until ?? 'today'}` : '';
    const dates = { ...(since ? { since } : {}), ...(until ? { until } : {}) };
    const search =
      subject.kind === 'service'
        ? { mentions_service: subject.id, ...dates }
        : subject.kind === 'technician'
          ? { mentions_technician: subject.id, ...dates }
          : { ...dates };
    const about = subject.kind === 'aspect' ? `the aspect "${subject.id}"` : `the ${subject.kind} ${subject.name} (id ${subject.id})`;
    const steps =
      subject.kind === 'aspect'
        ? `Call get_insights with {"section":"aspects"} for the counts, score, trend and quotes of "${subject.id}", then search_reviews with ` +
          `${JSON.stringify({ ...search, fields: 'id,rating,date,title,text,aspects', limit: 100 })} and read the reviews whose aspects name "${subject.id}".`
        : `Call search_reviews with ${JSON.stringify({ ...search, fields: 'id,rating,date,title,text,aspects', limit: 100 })} (page on with next_offset ` +
          `while it is given), and get_insights with {"section":"entities"} for the overall figures.`;
    return {
      description: `What customers praise and criticise about ${about}${period}.`,
      messages: [
        text(
          `What do customers praise and what do they criticise about ${about}${period}? ${steps} ` +
            'Answer with two short lists, praise and criticism, each point backed by one or two quotes with their review ids and dates, ' +
            'then one sentence on the trend. Only use what the reviews say.',
        ),
      ],
    };
  }

  function draftReply(args: Record<string, unknown>): GetPromptResult {
    const id = stringArg('draft_reply', args, 'review_id', true) as string;
    const review = catalog.review(id);
    if (!review) {
      throw new ProtocolError(INVALID_PARAMS, `Invalid arguments for prompt draft_reply: no published review has the id ${JSON.stringify(id.slice(0, 60))}; complete review_id to list them.`);
    }
    const uri = `reviews://review/${encodeURIComponent(review.id)}`;
    return {
      description: `A reply to the ${review.rating}-star review ${review.id} by ${review.author.name}.`,
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri, mimeType: 'application/json', text: JSON.stringify(review) } } },
        text(
          `Draft the owner's public reply to this ${review.rating}-star review by ${review.author.name} (${review.date}). ` +
            'Thank them by name, answer each point they raise (from its text and its aspects), own any problem without excuses and say ' +
            'what happens next; keep it under 120 words, warm and plain, with no discount offers. ' +
            (review.response ? `The business already replied on ${review.response.date}: write a follow-up that does not repeat it.` : ''),
        ),
      ],
    };
  }

  const byPrefix = (values: readonly string[], prefix: string) => {
    const wanted = prefix.toLowerCase();
    return values.filter((value) => value.toLowerCase().startsWith(wanted));
  };
  // Folded as namedIds folds, so that "tomas" completes "Tomás Villarreal".
  const foldedSubjects = subjectNames.map((value) => [normalizeName(value), value] as const);
  const subjectsByPrefix = (prefix: string) => {
    const wanted = normalizeName(prefix);
    return foldedSubjects.filter(([folded]) => folded.startsWith(wanted)).map(([, value]) => value);
  };
  // Sorted on the first completion asked for, not while a switch prepares the build (100 ms at 100,000 reviews).
  let sortedIds: string[] | undefined;
  const reviewIds = () => (sortedIds ??= catalog.entries.map((entry) => entry.id).sort());

  return {
    list,
    get(name, args) {
      if (name === 'customer_feedback') return customerFeedback(args);
      if (name === 'draft_reply') return draftReply(args);
      throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${JSON.stringify(name.slice(0, 60))}. The prompts are ${list.map((p) => p.name).join(', ')}.`);
    },
    complete(ref, argument, prefix) {
      const values =
        ref.type === 'ref/prompt' && ref.name === 'customer_feedback' && argument === 'subject'
          ? subjectsByPrefix(prefix)
          : (ref.type === 'ref/prompt' && ref.name === 'draft_reply' && argument === 'review_id') ||
              (ref.type === 'ref/resource' && ref.uri === 'reviews://review/{id}' && argument === 'id')
            ? byPrefix(reviewIds(), prefix)
            : [];
      return values;
    },
  };
}

export { MAX_COMPLETIONS };
