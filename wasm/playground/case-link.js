// A case kept in the URL fragment, so a link shared in an issue opens the
// same files, event and facts. The fragment never reaches a server; it is
// deflated (the browser's own CompressionStream, no dependency) and
// base64url-encoded so it survives being pasted anywhere.

/** @typedef {import("./case.js").Case} Case */

const PREFIX = "#case=";
/** Bumped when the shape of a case changes, so an old link is named, not misread. */
const VERSION = 1;

/**
 * The fragment holding `value`.
 * @param {Case} value
 * @returns {Promise<string>}
 */
export async function caseFragment(value) {
  const json = JSON.stringify({ v: VERSION, ...value });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream("deflate-raw"));
  return PREFIX + toBase64url(packed);
}

/**
 * The case a fragment holds; `null` when the fragment holds none.
 * @param {string} fragment `location.hash`
 * @returns {Promise<Case | null>}
 * @throws {Error} when the fragment is a damaged or unknown case
 */
export async function caseFromFragment(fragment) {
  if (!fragment.startsWith(PREFIX)) return null;
  let parsed;
  try {
    const bytes = fromBase64url(fragment.slice(PREFIX.length));
    const json = await pipe(bytes, new DecompressionStream("deflate-raw"));
    parsed = JSON.parse(new TextDecoder().decode(json));
  } catch (error) {
    throw new Error(
      `The link's case is damaged (${/** @type {Error} */ (error).message}); was it cut short?`,
    );
  }
  if (parsed.v !== VERSION) {
    throw new Error(
      `The link holds a case of version ${parsed.v}; this page reads version ${VERSION}.`,
    );
  }
  const { v, ...value } = parsed;
  return value;
}

/**
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {CompressionStream | DecompressionStream} transform
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** @param {Uint8Array} bytes */
function toBase64url(bytes) {
  let binary = "";
  // Chunked, because spreading a large array into one call overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
