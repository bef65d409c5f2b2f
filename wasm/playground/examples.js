// Cases one click away, each showing one side of the engine: a prompt with
// keywords and imported documentation, an edit with conditions on facts and
// file content, and the lint with its file and line.

/** @typedef {import("./case.js").Case} Case */

const WEBSHOP_RULES = {
  ".cursor/rules/base.mdc": `---
description: Conventions for every change in the webshop
alwaysApply: true
---
# Webshop conventions

- Money is an integer number of cents (\`priceCents\`), never a float.
- Dates cross the API as ISO 8601 strings in UTC.
`,
  ".cursor/rules/ui/components.mdc": `---
description: How UI components are written
globs: src/ui/**/*.tsx
promptAnyOf: component, button, form, checkout page
---
# UI components

- One component per file, named like the file (\`Button.tsx\` exports \`Button\`).
- Every interactive element is reachable by keyboard.

@docs/ui-guide.md#accessibility
`,
  ".cursor/rules/api/handlers.mdc": `---
description: HTTP handlers
globs: src/api/**/*.ts
promptAnyOf: endpoint, handler, route
---
# API handlers

- Validate the request body before touching the database.

@docs/api-guide.md#error-responses
`,
  "docs/ui-guide.md": `# UI guide

## Accessibility

- Buttons are \`<button>\` elements, never clickable \`<div>\`s.
- Every form field has a visible \`<label>\`.

## Visual style

Rounded corners of 4 px; spacing in steps of 8 px.
`,
  "docs/api-guide.md": `# API guide

## Error responses

Every error is JSON: \`{ "error": { "code": "out_of_stock", "message": "..." } }\`.
`,
};

/** @type {{ title: string, value: Case }[]} */
export const EXAMPLES = [
  {
    title: "A prompt",
    value: {
      files: WEBSHOP_RULES,
      event: { kind: "prompt", prompt: "Add a Button component to the checkout page", paths: "" },
      facts: { model: "", agent: "", tools: "", command: "", branch: "", os: "", ci: "" },
    },
  },
  {
    title: "An edit with conditions",
    value: {
      files: {
        ...WEBSHOP_RULES,
        ".cursor/rules/db/queries.mdc": `---
description: Raw SQL in the code
fileContains: ["(?i)select .* from", "(?i)delete from"]
---
# Queries

- Every query takes parameters; never build SQL by joining strings.
`,
        ".cursor/rules/release.mdc": `---
description: Release branches take fixes only
globs: src/**
branch: release/*
ci: false
match: all
---
# On a release branch

- Fix the bug and nothing else; features wait for main.
`,
        ".cursor/rules/opus.mdc": `---
description: For one model only
globs: src/**
model: claude-opus-4
---
# Long edits

- Say which files you will touch before touching them.
`,
        "src/api/orders.ts": `export async function listOrders(db, customer) {
  return db.query("SELECT id, total FROM orders WHERE customer = $1", [customer]);
}
`,
        "package.json": `{ "name": "webshop", "private": true }
`,
      },
      event: { kind: "edit", prompt: "", paths: "src/api/orders.ts" },
      facts: {
        model: "gpt-5",
        agent: "",
        tools: "",
        command: "",
        branch: "release/2.4",
        os: "linux",
        ci: "false",
      },
    },
  },
  {
    title: "What check finds",
    value: {
      files: {
        "rule-fairy.edn": `{:rules {:dirs [".cursor/rules"]}
 :shell-hook {:codex "yes"}}
`,
        ".cursor/rules/braces.mdc": `---
globs: src/{a,b}.ts
---
# Braces
`,
        ".cursor/rules/quoted.mdc": `---
alwaysApply: "true"
promptAnyOf: deploy
---
# Quoted
`,
        ".cursor/rules/import.mdc": `---
promptAnyOf: deploy
---
# Deploying

@docs/deploy.md#rollback
`,
        "docs/deploy.md": `# Deploy

## Roll back

Run the previous release's tag.
`,
      },
      event: { kind: "prompt", prompt: "deploy the shop", paths: "" },
      facts: { model: "", agent: "", tools: "", command: "", branch: "", os: "", ci: "" },
    },
  },
];
