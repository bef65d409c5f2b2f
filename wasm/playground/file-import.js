// Files coming in from outside: a picked or dropped folder, or loose files
// dropped or added. A folder may be a whole repository, so only what the
// engine says a case needs is read: the configuration, the rule files it
// names, and the documents those rules import.

/** @typedef {{ path: string, file: File }} FolderEntry */

/**
 * The files of a `webkitdirectory` pick, relative to the picked folder.
 * @param {FileList} list
 * @returns {FolderEntry[]}
 */
export function pickedFolder(list) {
  return [...list].map((file) => ({
    path: file.webkitRelativePath.split("/").slice(1).join("/"),
    file,
  }));
}

// Walked past when a folder is dropped: they never hold a project's rules,
// and a repository's can hold hundreds of thousands of entries.
const NOT_WALKED = new Set([".git", "node_modules", "target"]);

/**
 * What was dropped: the folder's entries when one folder was dropped,
 * else the loose files.
 * @param {DataTransfer} data
 * @returns {Promise<{ folder: FolderEntry[] | null, loose: File[] }>}
 */
export async function dropped(data) {
  const entries = [...data.items]
    .map((item) => (item.kind === "file" ? item.webkitGetAsEntry?.() : null))
    .filter((entry) => entry);
  const folder = entries.length === 1 && entries[0]?.isDirectory ? entries[0] : null;
  if (folder) {
    /** @type {FolderEntry[]} */
    const found = [];
    await walk(/** @type {FileSystemDirectoryEntry} */ (folder), "", found);
    return { folder: found, loose: [] };
  }
  return { folder: null, loose: [...data.files] };
}

/**
 * @param {FileSystemDirectoryEntry} dir
 * @param {string} prefix
 * @param {FolderEntry[]} found
 */
async function walk(dir, prefix, found) {
  const reader = dir.createReader();
  for (;;) {
    // readEntries answers in batches; an empty batch is the end.
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const entry of batch) {
      const path = prefix + entry.name;
      if (entry.isDirectory) {
        if (!NOT_WALKED.has(entry.name)) await walk(entry, `${path}/`, found);
      } else {
        const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
        found.push({ path, file });
      }
    }
  }
}

/**
 * The files of a folder a case takes, read.
 * @param {FolderEntry[]} entries
 * @param {{ ruleFilesIn: typeof import("./engine/rule_fairy_wasm.js").ruleFilesIn, Playground: typeof import("./engine/rule_fairy_wasm.js").Playground }} engine
 * @returns {Promise<Record<string, string>>}
 */
export async function readFolder(entries, engine) {
  const byPath = new Map(entries.map((e) => [e.path, e.file]));
  const config = await byPath.get("rule-fairy.edn")?.text();
  /** @type {Record<string, string>} */
  const files = {};
  for (const path of engine.ruleFilesIn([...byPath.keys()], config)) {
    files[path] = await /** @type {File} */ (byPath.get(path)).text();
  }
  const scratch = new engine.Playground();
  try {
    for (const [path, content] of Object.entries(files)) scratch.putFile(path, content);
    for (const path of scratch.missingDocuments()) {
      const file = byPath.get(path);
      // A document the folder lacks stays missing, and check names it.
      if (file) files[path] = await file.text();
    }
  } finally {
    scratch.free();
  }
  return files;
}

/**
 * Where a loose file goes: onto a document the rules import by that name,
 * a rule into `.cursor/rules/`, anything else at the root. The path stays
 * editable.
 * @param {string} name
 * @param {string[]} missing the documents the rules import and the case lacks
 */
export function placeLoose(name, missing) {
  const document = missing.find((path) => path === name || path.endsWith(`/${name}`));
  if (document) return document;
  if (name.endsWith(".mdc")) return `.cursor/rules/${name}`;
  return name;
}
