// A stand-in for the Anthropic Messages API on a loopback port, for
// end-to-end sessions of the real `claude` binary: it records every request
// body and answers from a script, streaming as the real API does.
//
// The script maps a prompt (a substring of the person's last prompt) to the
// assistant's turns after it: turn k answers the request that follows k
// tool results. A turn is `{ text }` or `{ tool, input }`. A request that
// asks for a conversation summary (a compaction) gets one.
import { createServer } from "node:http";

/** Starts the mock; resolves `{ url, requests, close }`. */
export async function startMock(script) {
  const requests = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.method !== "POST" || !request.url.startsWith("/v1/messages")) {
        response.writeHead(404).end();
        return;
      }
      if (request.url.startsWith("/v1/messages/count_tokens")) {
        response
          .writeHead(200, { "content-type": "application/json" })
          .end('{"input_tokens": 1000}');
        return;
      }
      const parsed = JSON.parse(body);
      requests.push(parsed);
      stream(response, answer(script, parsed), requests.length);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The turn a request gets. */
export function answer(script, request) {
  const messages = request.messages ?? [];
  if (isCompaction(messages)) {
    return { text: "<summary>\n1. The person asked for changes; they were made.\n</summary>" };
  }
  const { prompt, turn } = position(messages);
  const step = script.find((candidate) => prompt.includes(candidate.prompt));
  return step?.turns[turn] ?? { text: "Done." };
}

/** The person's latest prompt and how many tool results came after it. */
function position(messages) {
  let turn = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message.role !== "user") continue;
    const blocks = Array.isArray(message.content)
      ? message.content
      : [{ type: "text", text: message.content }];
    if (blocks.some((block) => block.type === "tool_result")) {
      turn += 1;
      continue;
    }
    const typed = blocks.filter(
      (block) => block.type === "text" && !block.text.startsWith("<system-reminder>"),
    );
    if (typed.length > 0) return { prompt: typed.map((block) => block.text).join("\n"), turn };
  }
  return { prompt: "", turn };
}

function isCompaction(messages) {
  const last = messages.at(-1);
  const text = JSON.stringify(last?.content ?? "");
  return /summary of the conversation|detailed summary/i.test(text);
}

/** Writes one assistant turn as the API's server-sent events. */
function stream(response, turn, sequence) {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event, data) =>
    response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send("message_start", {
    message: {
      id: `msg_mock_${sequence}`,
      type: "message",
      role: "assistant",
      model: "claude-mock",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  if (turn.tool !== undefined) {
    send("content_block_start", {
      index: 0,
      content_block: { type: "tool_use", id: `toolu_mock_${sequence}`, name: turn.tool, input: {} },
    });
    send("content_block_delta", {
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) },
    });
  } else {
    send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    send("content_block_delta", { index: 0, delta: { type: "text_delta", text: turn.text } });
  }
  send("content_block_stop", { index: 0 });
  send("message_delta", {
    delta: { stop_reason: turn.tool !== undefined ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send("message_stop", {});
  response.end();
}
