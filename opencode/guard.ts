// opencode's hooks, held so that none of them ever fails opencode's own
// work: a newer opencode may hand a hook a shape this plugin does not know.
// The person is told once per hook, and the session goes on.
import type { Hooks } from "@opencode-ai/plugin";

/** `hooks` with every function wrapped: what it throws is shown once per
 * hook through `show`, and the call returns as if nothing was delivered. */
export function guardAll(hooks: Hooks, show: (line: string) => void): Hooks {
  const told = new Set<string>();
  const guarded: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(hooks)) {
    if (typeof hook !== "function") {
      guarded[name] = hook;
      continue;
    }
    guarded[name] = async (...args: unknown[]) => {
      try {
        await (hook as (...given: unknown[]) => Promise<void>)(...args);
      } catch (error) {
        if (told.has(name)) return;
        told.add(name);
        const detail = error instanceof Error ? error.message : String(error);
        show(
          `rule-fairy: opencode's ${name} hook came in a shape this plugin does not know (${detail}); nothing was delivered for it, and the session goes on`,
        );
      }
    };
  }
  return guarded as Hooks;
}
