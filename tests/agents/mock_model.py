"""A scripted model behind the four wire protocols the agent CLIs speak.

One debugging turn, decided from the conversation each request carries (so
one mock also serves every retry after a block):

  no tool result yet              -> a shell call that reads the log
  a tool result last              -> the scenario's claim (unsupported)
  causegate's reason last         -> the scenario's answer to a block:
                                     "fix" quotes the log line, "hedge"
                                     restates the cause as a hypothesis,
                                     "loop" repeats the claim

Routes (what each CLI requested when driven offline, see tests/agents/README.md):
  POST /v1/messages                        Anthropic Messages, SSE   (Claude Code)
  POST /v1/responses                       OpenAI Responses, SSE     (Codex)
  POST /v1beta/models/M:streamGenerateContent  Gemini, SSE           (Gemini CLI)
  POST /v1/chat/completions                OpenAI Chat, SSE          (Copilot CLI)

Requests that are not the agent's main loop (Claude Code's title and
summary requests, which offer no shell tool) get a short text and are not
counted. Every main request is recorded with the reply chosen, so the test
asserts on what the model received: the number of main requests (2 = the
stop was allowed at once, each block adds one) and the block reasons.
"""
import http.server
import json
import os
import re
import threading
import time
import uuid

# The text the agents wrap causegate's reason in differs; the reason itself
# always opens with one of these (rules/protocol text, English and Chinese).
BLOCK_MARKS = ("causegate blocked this stop", "causegate 拦下了这次停止")
# The task a Claude Code parent gives its subagent: in a request, it tells
# the subagent's conversation from the parent's.
SUBAGENT_TASK = "Subagent task"


class Script:
    """What the model says at each step of the turn."""

    def __init__(self, command, claim, answers, subagent_mode=None, parent_claim=None):
        self.command = command      # the shell command of the probe
        self.claim = claim          # the unsupported cause, said first
        self.answers = answers      # mode -> the answer after a block
        # Claude Code: the probe runs in a subagent, which answers its own
        # blocks by this mode; the parent then says parent_claim (default:
        # the claim) and answers its blocks by the case's mode.
        self.subagent_mode = subagent_mode
        self.parent_claim = parent_claim or claim


def is_block(text):
    return any(mark in text for mark in BLOCK_MARKS)


class Conversation:
    """A request's conversation reduced to what the script decides on."""

    def __init__(self):
        self.events = []  # ("user" | "assistant" | "tool_result", text)
        self.agent_tool_fields = set()  # what the offered Agent tool's input takes

    def add(self, kind, text):
        self.events.append((kind, text or ""))

    def mentions(self, text):
        return any(text in t for k, t in self.events if k == "user")

    def tool_results(self):
        return [t for k, t in self.events if k == "tool_result"]

    def blocks(self):
        return [t for k, t in self.events if k == "user" and is_block(t)]

    def last_kind(self):
        """tool_result, block, or prompt: what the model answers now."""
        for kind, text in reversed(self.events):
            if kind == "tool_result":
                return "tool_result"
            if kind == "user":
                return "block" if is_block(text) else "prompt"
        return "prompt"


def text_of(value):
    """Text of a content value: a string, or a list of typed blocks/parts."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(text_of(v) for v in value)
    if isinstance(value, dict):
        for key in ("text", "output", "content", "result"):
            if key in value:
                return text_of(value[key])
        if "response" in value:
            return json.dumps(value["response"])
    return ""


# --- each wire protocol: read the conversation, write the reply -------------

def anthropic_conversation(body):
    conv = Conversation()
    for tool in body.get("tools", []):
        if isinstance(tool, dict) and tool.get("name") == "Agent":
            conv.agent_tool_fields = set(tool.get("input_schema", {}).get("properties", {}))
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            conv.add(message.get("role"), content)
            continue
        # One message is one event: newer Claude Code versions send a block
        # as two text blocks (a preamble and the reason) in one message.
        texts = []
        for block in content or []:
            kind = block.get("type")
            if kind == "tool_result":
                conv.add("tool_result", text_of(block.get("content")))
            elif kind == "text":
                texts.append(block.get("text") or "")
        if texts:
            conv.add(message.get("role"), "\n".join(texts))
    return conv


def anthropic_is_side_request(body):
    names = {t.get("name") for t in body.get("tools", []) if isinstance(t, dict)}
    return "Bash" not in names


def sse(event, data):
    prefix = f"event: {event}\n" if event else ""
    return f"{prefix}data: {json.dumps(data)}\n\n".encode()


def anthropic_reply(reply):
    msg_id = "msg_" + uuid.uuid4().hex[:20]
    out = [sse("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 50, "output_tokens": 1}}})]
    if reply["kind"] == "tool":
        block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": reply["tool"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(reply["input"])}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": reply["text"]}
        stop = "end_turn"
    out.append(sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}))
    out.append(sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}))
    out.append(sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
    out.append(sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 20}}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


def responses_conversation(body):
    conv = Conversation()
    items = body.get("input", [])
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    for item in items:
        kind = item.get("type", "message")
        if kind == "function_call_output":
            conv.add("tool_result", text_of(item.get("output")))
        elif kind == "message":
            conv.add(item.get("role"), text_of(item.get("content")))
    return conv


def responses_reply(reply):
    resp_id = "resp_" + uuid.uuid4().hex[:16]
    if reply["kind"] == "tool":
        item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:12], "name": "exec_command",
                "call_id": "call_" + uuid.uuid4().hex[:12], "arguments": json.dumps({"cmd": reply["input"]["command"]})}
        deltas = []
    else:
        item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:12], "role": "assistant",
                "content": [{"type": "output_text", "text": reply["text"], "annotations": []}]}
        deltas = [sse("response.output_text.delta", {"type": "response.output_text.delta", "item_id": item["id"],
                                                     "output_index": 0, "content_index": 0,
                                                     "delta": reply["text"]})]
    usage = {"input_tokens": 50, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 20,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 70}
    out = [sse("response.created", {"type": "response.created", "response": {"id": resp_id}}),
           sse("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
           *deltas,
           sse("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
           sse("response.completed", {"type": "response.completed", "response": {"id": resp_id, "usage": usage}})]
    return b"".join(out)


def gemini_conversation(body):
    conv = Conversation()
    for content in body.get("contents", []):
        role = "assistant" if content.get("role") == "model" else "user"
        for part in content.get("parts", []):
            if "functionResponse" in part:
                conv.add("tool_result", text_of(part["functionResponse"].get("response")))
            elif "text" in part and not part.get("thought"):
                conv.add(role, part["text"])
    return conv


def gemini_reply(reply):
    if reply["kind"] == "tool":
        part = {"functionCall": {"name": "run_shell_command", "args": {"command": reply["input"]["command"]}}}
    else:
        part = {"text": reply["text"]}
    data = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 20, "totalTokenCount": 70},
            "modelVersion": "gemini-2.5-pro"}
    return f"data: {json.dumps(data)}\r\n\r\n".encode()


def chat_conversation(body):
    conv = Conversation()
    for message in body.get("messages", []):
        role = message.get("role")
        if role == "tool":
            conv.add("tool_result", text_of(message.get("content")))
        elif role in ("user", "assistant"):
            conv.add(role, text_of(message.get("content")))
    return conv


def chat_reply(reply):
    chunk_id = "chatcmpl-" + uuid.uuid4().hex[:16]

    def chunk(delta, finish=None, usage=None):
        data = {"id": chunk_id, "object": "chat.completion.chunk", "created": int(time.time()), "model": "gpt-4.1",
                "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage:
            data["usage"] = usage
        return f"data: {json.dumps(data)}\n\n".encode()

    if reply["kind"] == "tool":
        call = {"index": 0, "id": "call_" + uuid.uuid4().hex[:12], "type": "function",
                "function": {"name": "bash", "arguments": json.dumps(reply["input"])}}
        out = [chunk({"role": "assistant", "content": None, "tool_calls": [call]}), chunk({}, "tool_calls")]
    else:
        out = [chunk({"role": "assistant", "content": reply["text"]}), chunk({}, "stop")]
    out.append(chunk({}, usage={"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}))
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


# --- the server --------------------------------------------------------------

class MockModel:
    """Serves one scenario on 127.0.0.1; records every main request."""

    def __init__(self, script, mode, latency_ms=200, max_requests=40, dump_dir=None):
        self.script = script
        self.mode = mode
        self.latency = latency_ms / 1000.0
        self.max_requests = max_requests
        self.dump_dir = dump_dir  # each main request's body, for a failing case's folder
        self.requests = []      # main requests: {"route", "replied", "blocks", "last_block"}
        self.side_requests = 0
        self.unknown = []       # routes the mock does not serve (a CLI changed)
        self.lock = threading.Lock()
        mock = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):  # Claude Code checks the base URL first
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                mock.serve_get(self)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                mock.serve_post(self, raw)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    # Decides the reply from the conversation.
    def decide(self, conv):
        results = conv.tool_results()
        in_subagent = conv.mentions(SUBAGENT_TASK)
        mode = self.script.subagent_mode if in_subagent else self.mode
        claim = self.script.parent_claim if self.script.subagent_mode and not in_subagent else self.script.claim
        if not results:
            if self.script.subagent_mode and not in_subagent:
                call = {"description": "Read the build log", "subagent_type": "general-purpose",
                        "prompt": f"{SUBAGENT_TASK}: run `{self.script.command}` and report the cause."}
                # Newer versions start agents in the background unless told
                # not to; this turn's next step needs the answer.
                if "run_in_background" in conv.agent_tool_fields:
                    call["run_in_background"] = False
                return {"kind": "tool", "tool": "Agent", "input": call}
            return {"kind": "tool", "tool": "Bash",
                    "input": {"command": self.script.command, "description": "Read the build log"}}
        if conv.last_kind() == "block" or mode == "good":
            return {"kind": "text", "text": self.script.answers[mode]}
        return {"kind": "text", "text": claim}

    def record(self, route, conv, reply):
        blocks = conv.blocks()
        with self.lock:
            self.requests.append({"route": route, "reply": reply.get("text") or reply.get("tool"),
                                  "blocks": len(blocks), "last_block": blocks[-1] if blocks else "",
                                  "subagent": conv.mentions(SUBAGENT_TASK), "at": time.time()})
            return len(self.requests)

    def send(self, handler, status, body, content_type):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def serve_get(self, handler):
        # Gemini and Codex may ask for model lists; an empty one is enough.
        if "models" in handler.path:
            self.send(handler, 200, json.dumps({"models": [], "data": []}).encode(), "application/json")
        else:
            self.send(handler, 404, b"{}", "application/json")

    def serve_post(self, handler, raw):
        path = handler.path.split("?", 1)[0]
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self.send(handler, 400, b'{"error":"bad json"}', "application/json")
            return
        if path.endswith("/v1/messages"):
            conv, render, side = anthropic_conversation(body), anthropic_reply, anthropic_is_side_request(body)
        elif path.endswith("/v1/responses"):
            conv, render, side = responses_conversation(body), responses_reply, False
        elif re.search(r"/models/[^/:]+:(stream)?[gG]enerateContent$", path):
            conv, render, side = gemini_conversation(body), gemini_reply, "tools" not in body
        elif path.endswith("/chat/completions"):
            conv, render = chat_conversation(body), chat_reply
            side = not any(t.get("function", {}).get("name") == "bash" for t in body.get("tools", []) or [])
        elif path.endswith(":countTokens"):
            self.send(handler, 200, b'{"totalTokens": 50}', "application/json")
            return
        else:
            with self.lock:
                self.unknown.append(handler.command + " " + handler.path)
            self.send(handler, 404, b'{"error":"not served by the mock"}', "application/json")
            return
        if side:
            with self.lock:
                self.side_requests += 1
            reply = {"kind": "text", "text": "Reading a build log."}
        else:
            reply = self.decide(conv)
            number = self.record(path, conv, reply)
            if self.dump_dir:
                with open(os.path.join(self.dump_dir, f"request-{number:02d}.json"), "wb") as f:
                    f.write(raw)
            if number > self.max_requests:
                self.send(handler, 429, b'{"error":"mock request limit"}', "application/json")
                return
            time.sleep(self.latency)  # no faster than a real model
        self.send(handler, 200, render(reply), "text/event-stream")
