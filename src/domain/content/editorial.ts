export interface EditorialFaqEntry {
  question: string;
  answer: string;
}

/** `content/faq.md`: each `## heading` is a question, the text under it the answer. */
export function parseFaq(markdown: string): EditorialFaqEntry[] {
  const entries: EditorialFaqEntry[] = [];
  const sections = markdown.replace(/\r\n/g, '\n').split(/^##\s+/m).slice(1);
  for (const section of sections) {
    const [heading = '', ...rest] = section.split('\n');
    const question = heading.trim();
    const answer = rest.join('\n').trim();
    if (question && answer) entries.push({ question, answer });
  }
  return entries;
}
