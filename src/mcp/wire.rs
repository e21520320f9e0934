//! The stdio transport of `astrix mcp`: newline-delimited JSON-RPC, with the error answers
//! that rmcp's own transport leaves out.
//!
//! rmcp drops a line that is not JSON (or not UTF-8) without an answer, answers `tools/call`
//! with missing or ill-typed params as an unknown method (−32601), and sends its error
//! answers without an `id`. This layer reads each line first and answers what it can judge
//! itself, in JSON-RPC's terms:
//!
//! - a line that is not UTF-8 or not JSON: −32700 (parse error), `id: null`;
//! - a batch (JSON array), a message that is not an object, a request whose `id` is not a
//!   string or a 64-bit integer, or one without `"jsonrpc": "2.0"`: −32600 (invalid
//!   request);
//! - `tools/call` without `params`, without a string `name`, with `arguments` that are not
//!   an object, or naming a tool this server does not have: −32602 (invalid params), saying
//!   what to fix and naming the tools;
//! - another MCP method whose params do not have that method's shape: −32602;
//! - a method that MCP does not give a client to call: −32601, naming the ones served.
//!
//! Everything else goes to rmcp unchanged. A notification is never answered, whatever is
//! wrong with it. Writes go through one task, in order, so that an answer written while a
//! read is cancelled (rmcp polls `receive` inside a `select!`) is never cut short.

use std::future::Future;

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;

/// The longest line read (16 MiB, as rmcp's own transport): a longer one is answered with
/// −32600 and skipped, so that a peer that never sends a newline cannot exhaust memory.
const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC's error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// The MCP requests a client sends a server, each with params of its own shape. rmcp reads
/// a request with one of these methods whose params do not fit as a custom request, which
/// it then answers as an unknown method.
const CLIENT_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// What to do with one line.
#[derive(Debug)]
enum Triage {
    /// Hand the message to rmcp.
    Deliver(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer with this error, and hand nothing on.
    Answer(Value),
    /// Nothing: an empty line, or a notification or response that cannot be read.
    Ignore,
}

/// A JSON-RPC error answer.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The JSON object of one line (without its newline), or the answer to a line that is not
/// one; `None` for a blank line.
fn read_object(line: &[u8]) -> Option<Result<serde_json::Map<String, Value>, Value>> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Some(Err(error(
            &Value::Null,
            PARSE_ERROR,
            "parse error: the line is not UTF-8 text; send each JSON-RPC message as one line of UTF-8 JSON",
        )));
    };
    Some(match serde_json::from_str(text) {
        Ok(Value::Object(message)) => Ok(message),
        Ok(Value::Array(_)) => Err(error(
            &Value::Null,
            INVALID_REQUEST,
            "invalid request: JSON-RPC batches (arrays) are not supported by MCP; send each message on a line of its own",
        )),
        Ok(_) => Err(error(
            &Value::Null,
            INVALID_REQUEST,
            "invalid request: a JSON-RPC message is a JSON object",
        )),
        Err(problem) => Err(error(
            &Value::Null,
            PARSE_ERROR,
            &format!(
                "parse error: the line is not JSON ({problem}); send each JSON-RPC message as one line of JSON"
            ),
        )),
    })
}

/// Judges one line (without its newline) against JSON-RPC and the tools of this server.
fn triage(line: &[u8], tools: &[&str]) -> Triage {
    let message = match read_object(line) {
        None => return Triage::Ignore,
        Some(Err(answer)) => return Triage::Answer(answer),
        Some(Ok(message)) => message,
    };
    let method = message.get("method").and_then(Value::as_str);
    let Some(id) = message.get("id") else {
        if ["method", "result", "error"]
            .iter()
            .all(|key| !message.contains_key(*key))
        {
            // Neither a request, a notification nor a response (`{}`): JSON-RPC answers it.
            return Triage::Answer(error(
                &Value::Null,
                INVALID_REQUEST,
                "invalid request: a JSON-RPC message has a `method` (a request or a notification) or a `result` or `error` (a response)",
            ));
        }
        // A notification (or a malformed message without an id): never answered.
        return deliver_or_ignore(Value::Object(message));
    };
    // The id as an answer may repeat it: a string or a number as sent, else null.
    let answer_id = match id {
        Value::String(_) | Value::Number(_) => id.clone(),
        _ => Value::Null,
    };
    if !(id.is_string() || id.is_i64()) {
        return Triage::Answer(error(
            &answer_id,
            INVALID_REQUEST,
            &format!(
                "invalid request: `id` is `{}`; give each request a string id or an integer id from -2^63 to 2^63 - 1",
                excerpt(&id.to_string())
            ),
        ));
    }
    if method.is_some() && message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Triage::Answer(error(
            &answer_id,
            INVALID_REQUEST,
            "invalid request: `jsonrpc` must be \"2.0\"",
        ));
    }
    let Some(method) = method.map(str::to_owned) else {
        // A response to a request of the server's; rmcp matches it to the request.
        return deliver_or_ignore(Value::Object(message));
    };
    if method == "tools/call"
        && let Some(problem) = call_problem(message.get("params"), tools)
    {
        return Triage::Answer(error(&answer_id, INVALID_PARAMS, &problem));
    }
    let known = CLIENT_METHODS.contains(&method.as_str());
    if !known && !method.starts_with("notifications/") {
        // rmcp answers these with the bare method name as the message.
        return Triage::Answer(error(
            &answer_id,
            METHOD_NOT_FOUND,
            &format!(
                "method not found: `{}`; this server answers `initialize`, `ping`, `tools/list` and `tools/call`",
                excerpt(&method)
            ),
        ));
    }
    let invalid_params = || {
        Triage::Answer(error(
            &answer_id,
            INVALID_PARAMS,
            &format!(
                "invalid params: the params of `{method}` do not have the shape MCP gives them; see the MCP specification of `{method}`"
            ),
        ))
    };
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(Value::Object(message)) {
        Ok(JsonRpcMessage::Request(request))
            if known && matches!(request.request, ClientRequest::CustomRequest(_)) =>
        {
            invalid_params()
        }
        Ok(message) => Triage::Deliver(Box::new(message)),
        Err(_) if known => invalid_params(),
        Err(problem) => Triage::Answer(error(
            &answer_id,
            INVALID_REQUEST,
            &format!("invalid request: {problem}"),
        )),
    }
}

/// A message without an id, or a response: handed on when rmcp can read it, else dropped
/// (JSON-RPC answers neither).
fn deliver_or_ignore(value: Value) -> Triage {
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(message) => Triage::Deliver(Box::new(message)),
        Err(_) => Triage::Ignore,
    }
}

/// What is wrong with the params of a `tools/call`, as the message of its answer.
fn call_problem(params: Option<&Value>, tools: &[&str]) -> Option<String> {
    let names = tool_list(tools);
    let shape = format!(
        "{{\"name\": \"{}\", \"arguments\": {{…}}}}",
        tools.first().copied().unwrap_or("tool")
    );
    let Some(Value::Object(params)) = params else {
        let found = params.map_or_else(
            || "missing".to_owned(),
            |params| format!("`{}`", excerpt(&params.to_string())),
        );
        return Some(format!(
            "invalid params: `tools/call` needs `params`, an object with the tool's `name` and its `arguments` ({shape}); they are {found}. The tools are {names}"
        ));
    };
    let name = match params.get("name") {
        Some(Value::String(name)) => name,
        Some(other) => {
            return Some(format!(
                "invalid params: `params.name` is `{}`, not the name of a tool; give one of {names}",
                excerpt(&other.to_string())
            ));
        }
        None => {
            return Some(format!(
                "invalid params: `params.name` is missing; give the tool's name, one of {names}"
            ));
        }
    };
    if !tools.contains(&name.as_str()) {
        // A near miss, or a part of a name (`evaluate_policy`, `astrix_evaluate`).
        let suggestion = tools
            .iter()
            .map(|tool| (strsim::levenshtein(tool, name), *tool))
            .filter(|(distance, tool)| {
                *distance <= 3 || (name.len() >= 6 && tool.contains(name.as_str()))
            })
            .min()
            .map(|(_, tool)| format!("did you mean `{tool}`? "))
            .unwrap_or_default();
        return Some(format!(
            "invalid params: unknown tool `{}`; {suggestion}the tools are {names}",
            excerpt(name)
        ));
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(other) => Some(format!(
            "invalid params: `params.arguments` is `{}`; give the arguments of `{name}` as a JSON object, as its input schema describes (`{{}}` for none)",
            excerpt(&other.to_string())
        )),
    }
}

/// `a`, `b` and `c`, backticked.
fn tool_list(tools: &[&str]) -> String {
    let quoted: Vec<String> = tools.iter().map(|tool| format!("`{tool}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "none".to_owned(),
    }
}

/// At most 64 characters of `text`, with `…` when cut.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(64) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The server's end of a newline-delimited JSON-RPC stream.
pub struct LineTransport<R> {
    read: BufReader<R>,
    /// The line read so far (kept across a cancelled read).
    line: Vec<u8>,
    /// Whether the rest of an over-long line is being skipped.
    skipping: bool,
    /// The lines to write, in order, to the writing task.
    write: mpsc::UnboundedSender<Vec<u8>>,
    /// The writing task, awaited on close so that every answer is written.
    writer: Option<tokio::task::JoinHandle<()>>,
    /// The tools of this server, for the answers to `tools/call`.
    tools: Vec<&'static str>,
    /// The ids of the requests handed on and not answered yet: a request that reuses one
    /// is answered with an error here (rmcp would drop one of the two answers).
    in_flight: std::collections::HashSet<rmcp::model::RequestId>,
}

impl<R: AsyncRead + Unpin + Send + 'static> LineTransport<R> {
    /// A transport reading `read` and writing `write` (on a task of its own), for a server
    /// with `tools`. Must be called inside a tokio runtime.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(
        read: R,
        write: W,
        tools: Vec<&'static str>,
    ) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let writer = tokio::spawn(write_lines(write, receiver));
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            write: sender,
            writer: Some(writer),
            tools,
            in_flight: std::collections::HashSet::new(),
        }
    }

    /// Queues one JSON value as a line.
    fn queue(&self, value: &Value) -> bool {
        let mut line = value.to_string().into_bytes();
        line.push(b'\n');
        self.write.send(line).is_ok()
    }

    /// Reads up to the next newline into `self.line`; `false` at the end of the input.
    /// Cancellation-safe: bytes are consumed only as they are copied into `self.line`.
    async fn read_line(&mut self) -> std::io::Result<LineEnd> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(LineEnd::Eof);
            }
            let newline = available.iter().position(|byte| *byte == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let end = if self.skipping {
                if newline.is_some() {
                    self.skipping = false;
                }
                None
            } else if self.line.len() + take > MAX_LINE_BYTES {
                self.line.clear();
                self.skipping = newline.is_none();
                Some(LineEnd::TooLong)
            } else {
                self.line.extend_from_slice(&available[..take]);
                newline.map(|_| LineEnd::Line)
            };
            self.read.consume(take);
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }
}

/// How a read ended.
enum LineEnd {
    Line,
    TooLong,
    Eof,
}

/// Writes each line as it comes, until the channel closes or the output fails.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut out: W,
    mut lines: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(line) = lines.recv().await {
        if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
            break;
        }
    }
}

/// The output is closed: nothing more can be written.
#[derive(Debug, thiserror::Error)]
#[error("the MCP client's end of standard output is closed")]
pub struct ClosedError;

impl<R: AsyncRead + Unpin + Send + 'static> rmcp::transport::Transport<RoleServer>
    for LineTransport<R>
{
    type Error = ClosedError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match &item {
            JsonRpcMessage::Response(response) => {
                self.in_flight.remove(&response.id);
            }
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.in_flight.remove(id);
                }
            }
            _ => {}
        }
        let sent = match serde_json::to_vec(&item) {
            Ok(mut line) => {
                line.push(b'\n');
                self.write.send(line).is_ok()
            }
            Err(_) => false,
        };
        std::future::ready(if sent { Ok(()) } else { Err(ClosedError) })
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Ok(LineEnd::Line) => {}
                Ok(LineEnd::TooLong) => {
                    let answer = error(
                        &Value::Null,
                        INVALID_REQUEST,
                        &format!(
                            "invalid request: the message is longer than {MAX_LINE_BYTES} bytes and was skipped"
                        ),
                    );
                    if !self.queue(&answer) {
                        return None;
                    }
                    continue;
                }
                Ok(LineEnd::Eof) | Err(_) => return None,
            }
            let line = std::mem::take(&mut self.line);
            let content = line.strip_suffix(b"\n").unwrap_or(&line);
            match triage(content, &self.tools) {
                Triage::Deliver(message) => {
                    if let JsonRpcMessage::Request(request) = &*message
                        && !self.in_flight.insert(request.id.clone())
                    {
                        let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                        let answer = error(
                            &id,
                            INVALID_REQUEST,
                            "invalid request: a request with this `id` is not answered yet; give each request an id of its own",
                        );
                        if !self.queue(&answer) {
                            return None;
                        }
                        continue;
                    }
                    // A cancelled request gets no answer: its id is free again.
                    if let JsonRpcMessage::Notification(notification) = &*message
                        && let rmcp::model::ClientNotification::CancelledNotification(cancelled) =
                            &notification.notification
                        && let Some(id) = &cancelled.params.request_id
                    {
                        self.in_flight.remove(id);
                    }
                    return Some(*message);
                }
                Triage::Answer(answer) => {
                    if !self.queue(&answer) {
                        return None;
                    }
                }
                Triage::Ignore => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Closing the channel ends the writer once it has written what was queued.
        let (closed, _) = mpsc::unbounded_channel();
        self.write = closed;
        if let Some(writer) = self.writer.take() {
            let _ = writer.await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOLS: &[&str] = &[
        "astrix_evaluate_policy",
        "astrix_get_blast_radius",
        "astrix_run_impacted_tests",
    ];

    fn answer(line: &[u8]) -> Value {
        match triage(line, TOOLS) {
            Triage::Answer(answer) => answer,
            other => panic!("{other:?}"),
        }
    }

    macro_rules! answers {
        ($($name:ident: $line:expr => ($id:expr, $code:expr, $needle:expr);)*) => {
            $(
                #[test]
                fn $name() {
                    let answer = answer($line);
                    assert_eq!(answer["id"], $id, "{answer}");
                    assert_eq!(answer["error"]["code"], $code, "{answer}");
                    let message = answer["error"]["message"].as_str().unwrap();
                    assert!(message.contains($needle), "{message}");
                }
            )*
        };
    }

    answers! {
        not_json: b"not json" => (Value::Null, PARSE_ERROR, "the line is not JSON");
        truncated_json: b"{\"jsonrpc\": \"2.0\", \"id\": 1" => (Value::Null, PARSE_ERROR, "not JSON");
        not_utf8: b"\xff\xfe{}" => (Value::Null, PARSE_ERROR, "not UTF-8");
        batch: b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]" => (Value::Null, INVALID_REQUEST, "batches");
        empty_batch: b"[]" => (Value::Null, INVALID_REQUEST, "batches");
        a_number: b"42" => (Value::Null, INVALID_REQUEST, "a JSON object");
        huge_id: b"{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"ping\"}"
            => (json!(1.234_567_890_123_456_8e29), INVALID_REQUEST, "integer id from -2^63");
        fractional_id: b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}" => (json!(1.5), INVALID_REQUEST, "`id` is `1.5`");
        null_id: b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}" => (Value::Null, INVALID_REQUEST, "`id` is `null`");
        object_id: b"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}" => (Value::Null, INVALID_REQUEST, "`id` is `{}`");
        no_version: b"{\"id\":3,\"method\":\"ping\"}" => (json!(3), INVALID_REQUEST, "`jsonrpc` must be \"2.0\"");
        call_without_params: b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\"}"
            => (json!(4), INVALID_PARAMS, "`tools/call` needs `params`, an object with the tool's `name` and its `arguments`");
        call_with_string_params: b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":\"x\"}"
            => (json!("a"), INVALID_PARAMS, "they are `\"x\"`");
        call_with_numeric_name: b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":5}}"
            => (json!(5), INVALID_PARAMS, "`params.name` is `5`, not the name of a tool");
        call_without_name: b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}"
            => (json!(5), INVALID_PARAMS, "`params.name` is missing");
        call_with_array_arguments: b"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"astrix_evaluate_policy\",\"arguments\":[1]}}"
            => (json!(6), INVALID_PARAMS, "`params.arguments` is `[1]`");
        unknown_tool: b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":{}}}"
            => (json!(7), INVALID_PARAMS, "unknown tool `nope`; the tools are `astrix_evaluate_policy`, `astrix_get_blast_radius` and `astrix_run_impacted_tests`");
        misspelt_tool: b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"astrix_evaluate\"}}"
            => (json!(8), INVALID_PARAMS, "did you mean `astrix_evaluate_policy`?");
        unknown_method: b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no/such\"}"
            => (json!(3), METHOD_NOT_FOUND, "method not found: `no/such`; this server answers `initialize`");
        list_with_bad_params: b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":\"x\"}"
            => (json!(9), INVALID_PARAMS, "the params of `tools/list`");
        empty_object: b"{}" => (Value::Null, INVALID_REQUEST, "a JSON-RPC message has a `method`");
    }

    #[test]
    fn good_messages_go_to_rmcp_and_bad_notifications_get_no_answer() {
        for line in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"[..],
            b"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":{\"name\":\"astrix_get_blast_radius\"}}",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":999}}",
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r",
        ] {
            assert!(matches!(triage(line, TOOLS), Triage::Deliver(_)), "{}", String::from_utf8_lossy(line));
        }
        for line in [
            &b""[..],
            b"  \r",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":\"x\"}",
            b"{\"method\":5}",
        ] {
            assert!(
                matches!(triage(line, TOOLS), Triage::Ignore),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
