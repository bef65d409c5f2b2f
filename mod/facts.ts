// The facts rule conditions are tested against, asked of the session only
// when some rule tests them (the engine names them: `wants.facts`), so a
// project without conditions costs no call more. The engine turns what is
// gathered here into facts (the platform's OS name, a CI run, the branch);
// here it is only read.
import type { EngineInterface } from "claude-code";
import type { HostFacts, Wants } from "./engine/rule_fairy_wasm";

/** Generous for git on a large checkout, and still far from a hung hook. */
const TIMEOUT_MS = 20_000;

/** `command` is the slash command the prompt runs, as Claude Code names it
 * (`e.command.name`); `root` where git is asked for the branch. */
export async function gatherFacts(
  $: EngineInterface,
  wants: Wants,
  root: string,
  command: string | undefined,
): Promise<HostFacts> {
  const wanted = (fact: string) => wants.facts.includes(fact);
  const [model, info, ciEnv, branch, tools] = await Promise.all([
    wanted("model") ? $.session.model() : undefined,
    wanted("os") || wanted("agent") ? $.session.info() : undefined,
    wants.ci.length > 0 ? ciValues($, wants.ci) : undefined,
    wanted("branch") ? currentBranch($, root) : undefined,
    wanted("tools") ? $.tool.list().then((list) => list.map((tool) => tool.name)) : undefined,
  ]);
  const facts: HostFacts = {};
  if (model !== undefined) facts.model = model;
  if (info?.platform !== undefined) facts.platform = info.platform;
  // The agent the session itself runs as (`claude --agent NAME`); the main
  // thread of a plain session has none. Subagents' calls deliver nothing.
  if (info?.agentType !== undefined) facts.agent = info.agentType;
  if (ciEnv !== undefined) facts.ciEnv = ciEnv;
  if (branch !== undefined) facts.branch = branch;
  if (tools !== undefined) facts.tools = tools;
  if (command !== undefined) facts.command = command;
  return facts;
}

/** What `git symbolic-ref` printed (the engine reads the name from it);
 * nothing outside git or on a detached head. */
async function currentBranch($: EngineInterface, root: string): Promise<string | undefined> {
  const result = await $.process.run(["git", "symbolic-ref", "--quiet", "--short", "HEAD"], {
    cwd: root,
    timeoutMs: TIMEOUT_MS,
  });
  return result.exitCode === 0 ? result.stdout : undefined;
}

/** The values of the CI variables the engine names, in its order. `$.env`
 * takes only literal names, so each is read by name here; a name the
 * engine lists and this table lacks reads as unset (the tests hold the two
 * lists together). */
async function ciValues($: EngineInterface, names: readonly string[]): Promise<(string | null)[]> {
  const values: Record<string, string | undefined> = Object.fromEntries(
    await Promise.all([
      $.env.get("CI").then((value) => ["CI", value]),
      $.env.get("CONTINUOUS_INTEGRATION").then((value) => ["CONTINUOUS_INTEGRATION", value]),
      $.env.get("BUILD_NUMBER").then((value) => ["BUILD_NUMBER", value]),
      $.env.get("GITHUB_ACTIONS").then((value) => ["GITHUB_ACTIONS", value]),
      $.env.get("GITLAB_CI").then((value) => ["GITLAB_CI", value]),
      $.env.get("CIRCLECI").then((value) => ["CIRCLECI", value]),
      $.env.get("TRAVIS").then((value) => ["TRAVIS", value]),
      $.env.get("JENKINS_URL").then((value) => ["JENKINS_URL", value]),
      $.env.get("BUILDKITE").then((value) => ["BUILDKITE", value]),
      $.env.get("TEAMCITY_VERSION").then((value) => ["TEAMCITY_VERSION", value]),
    ]),
  );
  return names.map((name) => values[name] ?? null);
}
