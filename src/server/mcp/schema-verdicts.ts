/**
 * Verdicts of the SDK's checks of a message (its zod schemas, its classification of
 * the era), kept by what they read. Agents send the same few shapes of message
 * again and again (the lists, the same envelope, the same calls, only the id
 * changing), and those checks cost more than answering such a message: each is
 * made once per shape. The checks are pure functions of the message, so a kept
 * verdict is the one they would give.
 */

/** Shapes kept per kind of check; the oldest goes first. */
const MAX_SHAPES = 1_000;
/** A longer shape is checked every time: rare, and not worth its memory. */
const MAX_SHAPE_LENGTH = 2_048;

export interface SchemaVerdicts<V> {
  /** The verdict for the message's shape (see messageShape), made by `check` on first sight. */
  of(message: object, context: readonly (string | null)[], check: () => V): V;
}

export function schemaVerdicts<V>(): SchemaVerdicts<V> {
  const verdicts = new Map<string, V>();
  return {
    of(message, context, check) {
      const shape = messageShape(message, context);
      if (shape === undefined || shape.length > MAX_SHAPE_LENGTH) return check();
      const kept = verdicts.get(shape);
      // A verdict may be undefined (no problem): only then is a second look needed.
      if (kept !== undefined || verdicts.has(shape)) return kept as V;
      const verdict = check();
      if (verdicts.size >= MAX_SHAPES) verdicts.delete(verdicts.keys().next().value as string);
      verdicts.set(shape, verdict);
      return verdict;
    },
  };
}

/**
 * The last message's shape without its context: the checks of one request ask for it
 * twice (its JSON-RPC shape, then its era), and writing it out is most of what a kept
 * verdict costs. Messages are parsed per request and not changed while they are checked.
 */
let lastMessage: object | undefined;
let lastShape: string | undefined;

/**
 * A JSON-RPC message as the checks read it: everything but its id, of which only the
 * type counts (a string or a whole number, checked before; any value of it is as good);
 * undefined for a message nested too deep to write out (hostile, and checked every time).
 */
function bodyShape(message: object): string | undefined {
  if (message === lastMessage) return lastShape;
  const { id, ...rest } = message as { id?: unknown };
  let shape: string | undefined;
  try {
    // typeof gives letters only and the rest starts with "{": the parts cannot run into each other.
    shape = `${typeof id}${JSON.stringify(rest)}`;
  } catch {
    shape = undefined;
  }
  lastMessage = message;
  lastShape = shape;
  return shape;
}

/** The shape in its context (the headers a check reads besides the message). */
function messageShape(message: object, context: readonly (string | null)[]): string | undefined {
  const shape = bodyShape(message);
  return shape === undefined ? undefined : `${JSON.stringify(context)}${shape}`;
}
