// One session's deliveries run one at a time. Claude Code runs tool calls
// side by side, and `$.fs` has no lock or rename: reading the state,
// deciding and recording must not interleave, or a record is lost.
const tails = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier `work` of the same key has settled. */
export function serial<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
