// A scripted stand-in for the OpenAI Responses API, on 127.0.0.1 only.
// Codex POSTs `<base_url>/responses`; each request gets the next scripted
// answer as server-sent events, and every request body is kept so a test
// can read exactly what reached the model.

import http from "node:http";

// One model answer: the output items, and the usage Codex reads to decide
// whether to compact.
export function answer(items, totalTokens = 15) {
  return { items, totalTokens };
}

export const say = (text) => ({
  type: "message",
  role: "assistant",
  id: `msg_${Math.random().toString(16).slice(2)}`,
  content: [{ type: "output_text", text }],
});

export const applyPatch = (callId, patch) => ({
  type: "custom_tool_call",
  call_id: callId,
  name: "apply_patch",
  input: patch,
});

export const shell = (callId, cmd) => ({
  type: "function_call",
  call_id: callId,
  name: "exec_command",
  arguments: JSON.stringify({ cmd }),
});

// A call into Codex's `collaboration` tools (with `features.multi_agent_v2`).
const collaboration = (callId, name, args) => ({
  type: "function_call",
  call_id: callId,
  name,
  namespace: "collaboration",
  arguments: JSON.stringify(args),
});

// Starts a subagent with no parent history, so its context holds only what
// it is given.
export const spawnAgent = (callId, taskName, message) =>
  collaboration(callId, "spawn_agent", { task_name: taskName, message, fork_turns: "none" });

export const waitAgent = (callId) => collaboration(callId, "wait_agent", { timeout_ms: 30000 });

// Whether a request is a subagent's: Codex marks it in the client metadata.
export const isSubagent = (body) => body.client_metadata?.["x-openai-subagent"] !== undefined;

function sse(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function stream(responseId, { items, totalTokens }) {
  let body = sse("response.created", {
    type: "response.created",
    response: { id: responseId },
  });
  for (const item of items) {
    body += sse("response.output_item.done", { type: "response.output_item.done", item });
  }
  body += sse("response.completed", {
    type: "response.completed",
    response: {
      id: responseId,
      usage: {
        input_tokens: 10,
        input_tokens_details: null,
        output_tokens: 5,
        output_tokens_details: null,
        total_tokens: totalTokens,
      },
    },
  });
  return body;
}

// Starts the server on an ephemeral loopback port. `script` is consumed in
// order; a request past its end is answered "done" and reported in
// `unexpected`, so a test can fail on it instead of hanging.
export async function startMock() {
  const state = { script: [], subagentScript: [], requests: [], unexpected: [] };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url.endsWith("/responses")) {
        state.unexpected.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      state.requests.push(body);
      // A subagent's requests take their own script, as they interleave
      // with the parent's.
      let next = (isSubagent(body) ? state.subagentScript : state.script).shift();
      if (!next) {
        state.unexpected.push(`request ${state.requests.length} past the script`);
        next = answer([say("done")]);
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(stream(`resp_${state.requests.length}`, next));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    state,
    // The answers for the next requests, in order.
    expect(...answers) {
      state.script.push(...answers);
    },
    // The answers for the next subagent requests, in order.
    expectSubagent(...answers) {
      state.subagentScript.push(...answers);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
