// A mock OpenAI-compatible chat completions server on 127.0.0.1, for
// opencode configured with a custom provider. Every request body is kept,
// so a test asserts on exactly what reached the model. The replies are a
// script the prompts carry: a person's message holding
// `[[tool:NAME {json}]]` is answered with that tool call (the first one
// not yet made in the conversation), anything else with a line of text;
// a request opencode makes for itself (a title, a summary: no tools
// offered) gets text at once.
import http from "node:http";

export async function startMock() {
  const requests = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        res.writeHead(400).end("{}");
        return;
      }
      requests.push({ url: req.url, body: parsed });
      count += 1;
      if (!req.url.endsWith("/chat/completions")) {
        res.writeHead(404).end("{}");
        return;
      }
      const call = nextCall(parsed);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish) =>
        res.write(
          `data: ${JSON.stringify({
            id: `c${count}`,
            object: "chat.completion.chunk",
            created: 1,
            model: parsed.model,
            choices: [{ index: 0, delta, finish_reason: finish }],
            ...(finish === null
              ? {}
              : { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }),
          })}\n\n`,
        );
      if (call === undefined) {
        chunk({ role: "assistant", content: `reply ${count}` }, null);
        chunk({}, "stop");
      } else {
        chunk(
          {
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: `call_${count}`,
                type: "function",
                function: { name: call.name, arguments: call.args },
              },
            ],
          },
          null,
        );
        chunk({}, "tool_calls");
      }
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The tool call the script asks for next, or undefined for text. */
function nextCall(body) {
  if ((body.tools ?? []).length === 0) return undefined;
  const messages = body.messages ?? [];
  let lastUser = -1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index].role === "user") {
      lastUser = index;
      break;
    }
  }
  if (lastUser === -1) return undefined;
  const asked = [...textOf(messages[lastUser]).matchAll(/\[\[tool:(\w+) (.*?)\]\]/gs)];
  const made = messages.slice(lastUser + 1).filter((m) => m.role === "assistant" && m.tool_calls);
  const next = asked[made.length];
  return next === undefined ? undefined : { name: next[1], args: next[2] };
}

export function textOf(message) {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? "").join("\n");
  return "";
}
