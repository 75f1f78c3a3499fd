/** Sites built in memory from fixture-like content, for unit tests of the documents. */
import { validateContent } from '../../src/domain/content/validate.ts';
import { buildSite, type Site } from '../../src/domain/site.ts';

export interface ReviewSpec {
  id: string;
  rating?: number;
  date: string;
  text?: string;
  title?: string;
  verified?: boolean;
  response?: { date: string; text: string };
}

export function siteFrom(reviews: ReviewSpec[], businessName = 'Test Roofing'): Site {
  const business = { path: 'business.json', text: JSON.stringify({ name: businessName, url: 'https://test.example' }) };
  const files = reviews.map((r) => {
    const lines = [`author: Author ${r.id}`, `rating: ${r.rating ?? 5}`, `date: ${r.date}`, `verified: ${r.verified ?? true}`, 'verification: invoice'];
    if (r.title) lines.push(`title: ${JSON.stringify(r.title)}`);
    if (r.response) lines.push('response:', `  date: ${r.response.date}`, `  text: ${JSON.stringify(r.response.text)}`);
    return { path: `reviews/${r.id}.md`, text: `---\n${lines.join('\n')}\n---\n${r.text ?? `Review ${r.id}.`}\n` };
  });
  const result = validateContent({ business, reviews: files });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildSite(result.content, 'https://site.example', () => []);
}
