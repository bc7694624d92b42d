/**
 * A flat copy of a string that shares no memory with the string it came from. V8 keeps a
 * string sliced out of a larger one (a parser chunk: a whole page of HTML) tied to it;
 * anything kept for long must be detached first.
 */
export const detach = (value: string) => Buffer.from(value, 'utf8').toString('utf8');
