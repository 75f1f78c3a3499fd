/**
 * Tokenisation and a light suffix-stripping stemmer.
 *
 * Every word is reduced with `stem()` both in review text and in vocabulary phrases, so a
 * vocabulary entry like "still leaks" also matches "still leaking" and "still leaked".
 */

export type TokenKind = 'word' | 'number' | 'money' | 'punct';

export interface Token {
  /** Lower-cased surface form (contractions already expanded, e.g. "didn't" → "did", "not"). */
  readonly lower: string;
  /** Matching key: the stem for words, "<num>" for numbers, "<money>" for amounts, the character for punctuation. */
  readonly norm: string;
  readonly kind: TokenKind;
  /** True for digits and for number words ("two", "a", "single", "couple"), used by the `#` pattern slot. */
  readonly numeric: boolean;
}

function mk(lower: string, norm: string, kind: TokenKind, numeric: boolean): Token {
  return { lower, norm, kind, numeric };
}

export const NUM = '<num>';
export const MONEY = '<money>';

const NUMBER_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen',
  'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'hundred', 'thousand',
  'single', 'couple', 'few', 'several', 'half', 'zero', 'dozen', 'both',
]);

const NEGATIVE_CONTRACTIONS: Readonly<Record<string, string>> = {
  "can't": 'can', "won't": 'will', "shan't": 'shall', "ain't": 'is',
  cant: 'can', wont: 'will', aint: 'is', dont: 'do', didnt: 'did', doesnt: 'does', isnt: 'is',
  wasnt: 'was', werent: 'were', arent: 'are', havent: 'have', hasnt: 'has', hadnt: 'had',
  wouldnt: 'would', couldnt: 'could', shouldnt: 'should',
};

const IRREGULAR: Readonly<Record<string, string>> = {
  took: 'take', taken: 'take', came: 'come', went: 'go', gone: 'go', got: 'get', gotten: 'get',
  left: 'left', found: 'find', brought: 'bring', paid: 'pay', said: 'say', told: 'tell',
  kept: 'keep', ran: 'run', swore: 'swear', sworn: 'swear', threw: 'throw', thrown: 'throw',
  stood: 'stand', felt: 'felt', made: 'make', heard: 'hear', knew: 'know', known: 'know',
  did: 'do', done: 'do', does: 'do', saw: 'see', seen: 'see', gave: 'give', given: 'give',
  wrote: 'write', written: 'write', blew: 'blow', blown: 'blow', fell: 'fall', fallen: 'fall',
  dealt: 'deal', sent: 'send', spent: 'spend', lost: 'lose', bought: 'buy', built: 'build',
  was: 'be', were: 'be', is: 'be', are: 'be', am: 'be', been: 'be', being: 'be',
  has: 'have', had: 'have', having: 'have', quoted: 'quote', quoting: 'quote', quotes: 'quote',
};

const VOWEL = /[aeiouy]/;

/** Conservative English suffix stripper. Deterministic; identical for text and vocabulary. */
export function stem(word: string): string {
  const irregular = IRREGULAR[word];
  return stemRegular(irregular ?? word);
}

/** A memoising wrapper around `stem` with a bounded cache owned by the caller. */
export function createStemmer(maxEntries = 50_000): (word: string) => string {
  const cache = new Map<string, string>();
  return (word: string): string => {
    let s = cache.get(word);
    if (s === undefined) {
      s = stem(word);
      if (cache.size >= maxEntries) cache.clear();
      cache.set(word, s);
    }
    return s;
  };
}

function isVowelAt(s: string, i: number): boolean {
  const c = s[i];
  if (c === undefined) return false;
  if ('aeiou'.includes(c)) return true;
  return c === 'y' && i > 0 && !isVowelAt(s, i - 1);
}

/** Porter's measure: the number of vowel-consonant sequences. */
function measure(s: string): number {
  let m = 0;
  for (let i = 1; i < s.length; i += 1) if (isVowelAt(s, i - 1) && !isVowelAt(s, i)) m += 1;
  return m;
}

/** Ends consonant-vowel-consonant, the last not w, x or y ("hop", "mak"). */
function endsCvc(s: string): boolean {
  const n = s.length;
  if (n < 3) return false;
  const last = s[n - 1] ?? '';
  return !isVowelAt(s, n - 3) && isVowelAt(s, n - 2) && !isVowelAt(s, n - 1) && !'wxy'.includes(last);
}

/**
 * Suffix stripping. Base words of 6+ letters lose a final "e" ("schedule" → "schedul");
 * shorter ones keep it ("care" stays apart from "car", "note" from "not"), and short stems left
 * by "-ing"/"-ed" get their "e" back when English spelling implies one ("making" → "make",
 * "leaving" → "leave", "priced" → "price").
 */
function stemRegular(word: string): string {
  if (word.length <= 3) return word;
  let s = word;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);

  let r: string | null = null;
  if (s.endsWith('ied') && s.length > 4) return `${s.slice(0, -3)}y`;
  if (s.endsWith('ing') && s.length - 3 >= 3 && VOWEL.test(s.slice(0, -3))) r = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length - 2 >= 3 && VOWEL.test(s.slice(0, -2))) r = s.slice(0, -2);
  if (r === null) return s.endsWith('e') && s.length >= 6 ? s.slice(0, -1) : s;

  const last = r[r.length - 1] ?? '';
  const prev = r[r.length - 2] ?? '';
  if (r.length > 3 && last === prev && !'lsz'.includes(last) && !VOWEL.test(last)) return r.slice(0, -1); // "stopp" → "stop"
  if (r.length >= 5) return r; // long stems: base forms dropped their "e" too
  const consonantBefore = r.length >= 3 && !isVowelAt(r, r.length - 3);
  if (
    last === 'v' ||
    ((r.endsWith('at') || r.endsWith('iz') || r.endsWith('ut')) && consonantBefore) ||
    (last === 'c' && !isVowelAt(r, r.length - 2)) ||
    (last === 'g' && !isVowelAt(r, r.length - 2) && prev !== 'n') ||
    (measure(r) === 1 && endsCvc(r))
  ) {
    return `${r}e`;
  }
  return r;
}

// One alternative per token shape; order matters (money before number, abbreviations before words).
const TOKEN_RE =
  /(\$\s?\d[\d,]*(?:\.\d+)?k?)|(\d[\d,]*(?:\.\d+)?)(?:[a-z]{1,2}\b)?|\b([ap])\.m\.?|\b(e\.g|i\.e)\.?|([\p{L}]+(?:['’][\p{L}]+)*)|(--|[—–]|(?<=\s)-(?=\s)|[.!?;:,()"“”\[\]…])/gu;

function wordTokens(raw: string, out: Token[], stemmer: (w: string) => string): void {
  const word = (lower: string): Token => mk(lower, stemmer(lower), 'word', NUMBER_WORDS.has(lower));
  const neg = NEGATIVE_CONTRACTIONS[raw];
  if (neg === undefined && !raw.includes("'") && !raw.includes('’')) {
    out.push(word(raw));
    return;
  }
  const w = raw.replace(/’/g, "'");
  const neg2 = neg ?? NEGATIVE_CONTRACTIONS[w];
  if (neg2 !== undefined) {
    out.push(word(neg2));
    out.push(word('not'));
    return;
  }
  const nt = /^(.+)n't$/.exec(w);
  if (nt?.[1] !== undefined) {
    out.push(word(nt[1]));
    out.push(word('not'));
    return;
  }
  const clitic = /^(.+)'(s|d|ll|ve|re|m)$/.exec(w);
  if (clitic?.[1] !== undefined && clitic[2] !== undefined) {
    out.push(word(clitic[1]));
    out.push(word(clitic[2]));
    return;
  }
  out.push(word(w.replace(/'/g, '')));
}

/**
 * Split a sentence (or a vocabulary phrase) into tokens. `stemmer` defaults to `stem`; the
 * analyzer passes a memoised equivalent.
 */
export function tokenize(text: string, stemmer: (w: string) => string = stem): Token[] {
  const out: Token[] = [];
  const lower = text.toLowerCase();
  // matchAll works on a copy of the regex, so the shared pattern is never mutated.
  for (const m of lower.matchAll(TOKEN_RE)) {
    if (m[1] !== undefined) out.push(mk(m[1], MONEY, 'money', false));
    else if (m[2] !== undefined) out.push(mk(m[2], NUM, 'number', true));
    else if (m[3] !== undefined) out.push(mk(`${m[3]}m`, `${m[3]}m`, 'word', false));
    else if (m[4] !== undefined) out.push(mk(m[4], m[4], 'word', false));
    else if (m[5] !== undefined) wordTokens(m[5], out, stemmer);
    else if (m[6] !== undefined) {
      const p = m[6] === '--' || m[6] === '–' || m[6] === '-' ? '—' : m[6] === '…' ? '.' : m[6];
      out.push(mk(p, p, 'punct', false));
    }
  }
  return out;
}
