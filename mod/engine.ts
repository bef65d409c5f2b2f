// The engine, compiled once per module instance: module state survives
// across hook dispatches, and compiling is the costly part of loading.
import type { EngineInterface } from "claude-code";
import { initSync } from "./engine/rule_fairy_wasm";

let loaded: Promise<number> | undefined;

/** Compiles and instantiates the engine on first use; resolves to the
 * milliseconds that took (0 once loaded). A failed load is tried again
 * on the next event rather than remembered. */
export function loadEngine($: EngineInterface): Promise<number> {
  if (loaded === undefined) {
    const started = performance.now();
    loaded = $.wasm.compile("./engine/rule_fairy_wasm_bg.wasm").then((module) => {
      initSync({ module });
      return performance.now() - started;
    });
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  }
  return loaded.then(() => 0);
}
