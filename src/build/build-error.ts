/** A build that cannot go on, with a message for the person who ran it (no stack trace). */
export class BuildError extends Error {}
