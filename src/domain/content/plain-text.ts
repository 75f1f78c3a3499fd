import { fromMarkdown } from 'mdast-util-from-markdown';

interface MdNode {
  type: string;
  value?: string;
  alt?: string | null;
  children?: MdNode[];
}

const BLOCKS = new Set(['paragraph', 'heading', 'blockquote', 'listItem', 'code', 'table', 'tableRow']);

/**
 * The body with its markdown syntax removed and the characters kept as the author
 * typed them (no smart quotes): blocks are separated by a blank line, list items
 * by a line break.
 */
export function markdownToPlainText(markdown: string): string {
  const tree = fromMarkdown(markdown) as MdNode;
  const blocks: string[] = [];
  collectBlocks(tree, blocks);
  return blocks
    .map((block) => block.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim())
    .filter(Boolean)
    .join('\n\n');
}

function collectBlocks(node: MdNode, blocks: string[]): void {
  if (node.type === 'list') {
    const items = (node.children ?? []).map((item) => inlineText(item).trim()).filter(Boolean);
    if (items.length) blocks.push(items.join('\n'));
    return;
  }
  if (BLOCKS.has(node.type)) {
    blocks.push(inlineText(node));
    return;
  }
  if (node.type === 'html' || node.type === 'thematicBreak' || node.type === 'definition') return;
  for (const child of node.children ?? []) collectBlocks(child, blocks);
}

function inlineText(node: MdNode): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value ?? '';
    case 'break':
      return '\n';
    case 'image':
      return node.alt ?? '';
    case 'html':
      return '';
    case 'paragraph':
      return (node.children ?? []).map(inlineText).join('');
    default:
      return (node.children ?? []).map(inlineText).join(node.type === 'listItem' ? ' ' : '');
  }
}
