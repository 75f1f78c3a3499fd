/**
 * Verdicts of the SDK's checks of a message (its zod schemas, its classification of
 * the era), kept by what they read. Agents send the same few shapes of message
 * again and again (the lists, the same envelope, the same calls, only the id
 * changing), and those checks cost more than answering such a message: each is
 * made once per shape. The checks are pure functions of the message, so a kept
 * verdict is the one they would give.
 */

/** Shapes kept per kind of check; past it they are all forgotten and made again as they come. */
const MAX_SHAPES = 1_000;
/** A longer shape is checked every time: rare, and not worth its memory. */
const MAX_SHAPE_LENGTH = 2_048;

export interface SchemaVerdicts<V> {
  /** The verdict for the message's shape (see bodyShape) in its context, made by `check` on first sight. */
  of(message: object, context: readonly (string | null)[], check: () => V): V;
}

/**
 * Verdicts by context, then by shape: the shape is one string per message, looked up in
 * every check's map as it is (its hash is computed once), where a key joining context
 * and shape was a new long string, hashed anew, for each check of each request.
 */
export function schemaVerdicts<V>(): SchemaVerdicts<V> {
  const byContext = new Map<string, Map<string, V>>();
  let size = 0;
  return {
    of(message, context, check) {
      const shape = bodyShape(message);
      if (shape === undefined || shape.length > MAX_SHAPE_LENGTH) return check();
      // The context (the headers a check reads besides the message) is short: written out whole, it names one context only.
      const key = JSON.stringify(context);
      let verdicts = byContext.get(key);
      if (verdicts !== undefined) {
        const kept = verdicts.get(shape);
        // A verdict may be undefined (no problem): only then is a second look needed.
        if (kept !== undefined || verdicts.has(shape)) return kept as V;
      }
      const verdict = check();
      if (size >= MAX_SHAPES) {
        byContext.clear();
        size = 0;
        verdicts = undefined;
      }
      if (verdicts === undefined) byContext.set(key, (verdicts = new Map()));
      verdicts.set(shape, verdict);
      size++;
      return verdict;
    },
  };
}

/**
 * The last message's shape: the checks of one request ask for it twice (its JSON-RPC
 * shape, then its era). Messages are parsed per request and not changed while they are checked.
 */
let lastMessage: object | undefined;
let lastShape: string | undefined;

/**
 * A JSON-RPC message as the checks read it: everything but its id, of which only the
 * type counts (any string or whole number is as good as another). Written as the message's
 * JSON with the id standing in as `true` for a number and `false` for a string, which no
 * id can be; undefined (checked every time) for a message whose id is of neither type, or
 * nested too deep to write out (hostile). The id is put back before anything else reads it.
 */
function bodyShape(message: object): string | undefined {
  if (message === lastMessage) return lastShape;
  const record = message as { id?: unknown };
  const hasId = Object.hasOwn(record, 'id');
  const id = record.id;
  let shape: string | undefined;
  if (!hasId || typeof id === 'number' || typeof id === 'string') {
    try {
      if (hasId) record.id = typeof id === 'number';
      shape = JSON.stringify(message);
    } catch {
      shape = undefined;
    } finally {
      if (hasId) record.id = id;
    }
  }
  lastMessage = message;
  lastShape = shape;
  return shape;
}
