// The projects the browser test puts into the playground.

/** Two rules and the document one of them imports, and a prompt for them. */
export const fileRules = {
  rules: {
    ".cursor/rules/api/errors.mdc": `---
description: Errors from endpoints
globs: src/api/**
promptAnyOf: endpoint, error response
---
# Endpoint errors

- Every error carries a stable code.

@docs/errors.md#status-codes
`,
    ".cursor/rules/base.mdc": `---
description: Every change
alwaysApply: true
---
# Base

- Keep changes small.
`,
    "docs/errors.md": `# Errors

## Status codes

404 for a missing order, 409 for a conflict.

## Logging

Log the code, never the body.
`,
  },
  prompt: "How should the orders endpoint report errors?",
};

const RULES = 200;
const AREAS = 20;

/**
 * 200 rules over 20 areas, each with a glob, two keywords and an imported
 * section of its area's document (one always-on), and a dependency folder
 * holding rules of its own that a folder pick must leave out.
 */
function many() {
  /** @type {Record<string, string>} */
  const files = {};
  for (let area = 0; area < AREAS; area++) {
    const sections = [`# Area ${area}\n`];
    for (let topic = area; topic < RULES; topic += AREAS) {
      sections.push(
        `## Topic ${topic}\n\n${`Topic ${topic} keeps its handlers small and its errors coded. `.repeat(6)}\n`,
      );
      files[`.cursor/rules/area-${area}/topic-${topic}.mdc`] = `---
description: Topic ${topic}
globs: src/area${area}/topic${topic}/**
promptAnyOf: topic${topic}, subject${topic}
alwaysApply: ${topic === 0}
---
# Topic ${topic}

- Name things after topic ${topic}.
- Test topic ${topic} without a network.

@docs/area-${area}.md#topic-${topic}
`;
    }
    files[`docs/area-${area}.md`] = sections.join("\n");
  }
  files["node_modules/some-package/.cursor/rules/theirs.mdc"] =
    "---\nalwaysApply: true\n---\n# Not ours\n";
  files["node_modules/some-package/index.js"] = "module.exports = {};\n";
  return files;
}

export const manyRules = {
  files: many(),
  prompt: "Rework topic7 and subject42 before the release",
  fired: ["area-0/topic-0.mdc", "area-2/topic-42.mdc", "area-7/topic-7.mdc"],
};
