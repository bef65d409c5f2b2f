/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __wbg_workspace_free: (a: number, b: number) => void;
export const nothingInjected: () => [number, number];
export const shellCandidates: (a: number, b: number) => [number, number];
export const stateAfterCompaction: (a: number, b: number, c: number) => [number, number];
export const workspace_decide: (a: number, b: any) => [number, number, number];
export const workspace_documentsDue: (a: number, b: any) => [number, number, number, number];
export const workspace_editProbes: (a: number, b: number, c: number) => [number, number, number];
export const workspace_importedDocuments: (a: number) => [number, number, number, number];
export const workspace_markCheckout: (a: number, b: number, c: number) => void;
export const workspace_new: (a: number, b: number, c: number, d: number) => number;
export const workspace_putDocument: (a: number, b: number, c: number, d: number, e: number) => void;
export const workspace_putFile: (a: number, b: number, c: number, d: number, e: number) => void;
export const workspace_putLink: (a: number, b: number, c: number, d: number, e: number) => void;
export const workspace_remove: (a: number, b: number, c: number) => void;
export const workspace_rulesSource: (a: number) => [number, number, number];
export const workspace_setFrameLimits: (a: number, b: number, c: number) => void;
export const workspace_shellPlan: (a: number, b: number, c: number) => [number, number, number];
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_drop_slice: (a: number, b: number) => void;
export const __externref_table_dealloc: (a: number) => void;
export const __wbindgen_start: () => void;
