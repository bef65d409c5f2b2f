// A generated project for the WebAssembly benchmarks: `count` rules (two
// always on, the rest with a glob and keywords) spread over `groups`
// subdirectories of .cursor/rules (none when 1), each importing a section
// of one of twenty documents, as a map of project-relative paths to text.
export function generateProject(count = 200, groups = 10) {
  const files = {};
  const docs = 20;
  for (let doc = 0; doc < docs; doc += 1) {
    const sections = Array.from(
      { length: 10 },
      (_, section) =>
        `## Topic ${section}\n\n${`Guidance for topic ${section} of document ${doc}. `.repeat(8)}\n`,
    );
    files[`docs/guide-${doc}.md`] = `# Guide ${doc}\n\n${sections.join("\n")}`;
  }
  for (let rule = 0; rule < count; rule += 1) {
    const always = rule < 2;
    const front = always
      ? "alwaysApply: true"
      : `globs: src/module${rule}/**/*.ts, **/*_${rule}.test.ts\npromptAnyOf: topic${rule}, area${rule}, feature${rule}`;
    const body = `# Rule ${rule}\n\n${`Write code for area ${rule} this way. `.repeat(12)}\n\n@docs/guide-${rule % docs}.md#topic-${rule % 10}\n`;
    const dir = groups > 1 ? `group${rule % groups}/` : "";
    files[`.cursor/rules/${dir}rule-${rule}.mdc`] =
      `---\ndescription: Rule ${rule}\n${front}\n---\n${body}`;
  }
  return files;
}
