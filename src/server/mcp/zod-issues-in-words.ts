/**
 * The SDK checks messages and params with zod and, when one fails, says so with the
 * zod issues themselves (a JSON array, nested for unions), or not at all ("it is not a
 * valid JSON-RPC 2.0 message"). This turns the first issue into words that name the
 * member at fault and what it must be: `params._meta.progressToken must be a string or
 * a number`.
 */
interface Issue {
  code?: string;
  path?: readonly PropertyKey[];
  message?: string;
  expected?: string;
  errors?: readonly (readonly Issue[])[];
}

const isIssue = (value: unknown): value is Issue => typeof value === 'object' && value !== null && !Array.isArray(value);

function memberName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the message';
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index ? '.' : ''}${String(key)}`)).join('');
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(issue: Issue, prefix: readonly PropertyKey[]): string {
  const path = [...prefix, ...(issue.path ?? [])];
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    const firsts = issue.errors.map((branch) => branch[0]).filter(isIssue);
    // A choice of types at this very member: say the choice.
    if (firsts.length && firsts.every((first) => first.code === 'invalid_type' && !first.path?.length && first.expected)) {
      const types = [...new Set(firsts.map((first) => withArticle(first.expected as string)))];
      return `${memberName(path)} must be ${types.join(' or ')}`;
    }
    // Alternatives of whole shapes (a request, a notification, …): the first is the one meant.
    if (firsts[0]) return describe(firsts[0], path);
  }
  if (issue.code === 'invalid_type' && issue.expected) return `${memberName(path)} must be ${withArticle(issue.expected)}`;
  return `${memberName(path)}: ${issue.message ?? 'is not valid'}`;
}

/** The first of zod's issues (as thrown, or as the JSON the SDK wrote of them) in words; undefined if there is none to read. */
export function issuesInWords(issues: unknown): string | undefined {
  let list = issues;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return undefined;
    }
  }
  const first = Array.isArray(list) ? list[0] : undefined;
  return isIssue(first) ? describe(first, []) : undefined;
}
