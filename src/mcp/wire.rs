//! The stdio transport of `astrix mcp`: newline-delimited JSON-RPC, with the error answers
//! that rmcp's own transport leaves out, and ids of its own for rmcp.
//!
//! rmcp drops a line that is not JSON (or not UTF-8) without an answer, answers `tools/call`
//! with missing or ill-typed params as an unknown method (−32601), sends its error answers
//! without an `id`, and answers the MCP methods a server does not offer with the bare
//! method name. This layer reads each line first and answers what it can judge itself, in
//! JSON-RPC's terms:
//!
//! - a line that is not UTF-8 or not JSON: −32700 (parse error), `id: null`;
//! - valid JSON with a number beyond a 64-bit float (`1e400`): −32602 with the request's id,
//!   saying which number;
//! - a batch (JSON array), a message that is not an object, a request whose `id` is not a
//!   string or a 64-bit integer, or whose `method` is not a string, one without
//!   `"jsonrpc": "2.0"`, and a message with an `id` but none of `method`, `result` and
//!   `error`: −32600 (invalid request);
//! - `tools/call` without `params`, without a string `name`, with `arguments` that are not
//!   an object, or naming a tool this server does not have: −32602 (invalid params), saying
//!   what to fix and naming the tools;
//! - another MCP method whose params do not have that method's shape: −32602;
//! - a method this server does not serve (an MCP method for resources, prompts,
//!   completions or logging, a notification's method sent with an `id`, or a method MCP
//!   does not have): −32601, saying which methods are served;
//! - a request before `initialize` (other than `ping`): −32600, saying to initialise first;
//! - a request that reuses the id of one not answered yet: −32600.
//!
//! A notification is never answered, whatever is wrong with it, and neither is a response
//! (one with both `result` and `error` is logged and dropped). Before `initialize` neither
//! reaches rmcp, which would end the session on them.
//!
//! **Ids.** rmcp keeps a cancelled request's id until its handler has finished, and would
//! then send the old request's answer under the id of a new request that reuses it, and
//! cancel the new one. So rmcp never sees a client's ids: each request is handed on under a
//! new id of this transport's, the answer goes out under the client's id again, and a
//! cancellation is handed on under the id it cancels. A client may reuse an id once its
//! request is answered or cancelled; the cancelled request is never answered.
//!
//! Writes go through one task, in order, so that an answer written while a read is
//! cancelled (rmcp polls `receive` inside a `select!`) is never cut short.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, ClientRequest, GetMeta as _, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;

use super::session::{DRAIN_SECONDS, Session};

/// The longest line read (16 MiB, as rmcp's own transport): a longer one is answered with
/// −32600 and skipped, so that a peer that never sends a newline cannot exhaust memory.
const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC's error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// The methods this server answers.
const SERVED_METHODS: &[&str] = &["initialize", "ping", "tools/list", "tools/call"];

/// The other MCP requests a client may send a server, each with params of its own shape:
/// this server, which has tools only, does not serve them.
const UNSERVED_METHODS: &[&str] = &[
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
    /// Nothing: an empty line (`None`), or a notification or response that cannot be read
    /// (why, for the log).
    Ignore(Option<String>),
}

/// A JSON-RPC error answer.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The JSON object of one line (without its newline), or what to do with a line that is
/// not one.
fn read_object(line: &[u8]) -> Result<serde_json::Map<String, Value>, Triage> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err(Triage::Ignore(None));
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Err(Triage::Answer(error(
            &Value::Null,
            PARSE_ERROR,
            "parse error: the line is not UTF-8 text; send each JSON-RPC message as one line of UTF-8 JSON",
        )));
    };
    match serde_json::from_str(text) {
        Ok(Value::Object(message)) => Ok(message),
        Ok(Value::Array(_)) => Err(Triage::Answer(error(
            &Value::Null,
            INVALID_REQUEST,
            "invalid request: JSON-RPC batches (arrays) are not supported by MCP; send each message on a line of its own",
        ))),
        Ok(_) => Err(Triage::Answer(error(
            &Value::Null,
            INVALID_REQUEST,
            "invalid request: a JSON-RPC message is a JSON object",
        ))),
        Err(problem) => Err(out_of_range(text, &problem).unwrap_or_else(|| {
            Triage::Answer(error(
                &Value::Null,
                PARSE_ERROR,
                &format!(
                    "parse error: the line is not JSON ({problem}); send each JSON-RPC message as one line of JSON"
                ),
            ))
        })),
    }
}

/// The members of a message that say what it is, read without the rest.
#[derive(serde::Deserialize)]
struct Envelope {
    id: Option<Value>,
    method: Option<Value>,
}

/// What to do with `text`, valid JSON that `serde_json` cannot read because a number in it
/// is beyond a 64-bit float (JSON sets no limit); `None` when that is not what `problem` is.
fn out_of_range(text: &str, problem: &serde_json::Error) -> Option<Triage> {
    if !problem.to_string().starts_with("number out of range") {
        return None;
    }
    // Skipping values reads no number, so this says whether the rest is JSON.
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let number = number_ending_at(text, problem.column());
    let why = format!(
        "the number `{}` is out of range: the message is valid JSON, but astrix reads each JSON number as a 64-bit integer or float, and this one is beyond the largest float (about 1.8e308); send a smaller number (a count may also be sent as a string of decimal digits)",
        excerpt(number)
    );
    let Ok(envelope) = serde_json::from_str::<Envelope>(text) else {
        // The id itself cannot be read: JSON-RPC answers with a null id.
        return Some(Triage::Answer(error(
            &Value::Null,
            INVALID_REQUEST,
            &format!("invalid request: {why}"),
        )));
    };
    let kind = match (&envelope.id, &envelope.method) {
        (Some(id), Some(Value::String(_))) if id.is_string() || id.is_i64() => {
            return Some(Triage::Answer(error(
                id,
                INVALID_PARAMS,
                &format!("invalid params: {why}"),
            )));
        }
        (Some(id), Some(_)) => {
            // A request all the same: answered, with the id when it is one JSON-RPC allows.
            let id = if id.is_string() || id.is_number() {
                id.clone()
            } else {
                Value::Null
            };
            return Some(Triage::Answer(error(
                &id,
                INVALID_REQUEST,
                &format!("invalid request: {why}"),
            )));
        }
        (Some(_), None) => "a response",
        (None, _) => "a notification",
    };
    Some(Triage::Ignore(Some(format!("ignored {kind}: {why}"))))
}

/// The number that ends at `column` (1-based, in bytes, as `serde_json` counts) of `text`.
fn number_ending_at(text: &str, column: usize) -> &str {
    let bytes = text.as_bytes();
    let is_number = |byte: &u8| byte.is_ascii_digit() || b"+-.eE".contains(byte);
    let mut end = column.min(bytes.len());
    while end < bytes.len() && is_number(&bytes[end]) {
        end += 1;
    }
    let mut start = end;
    while start > 0 && is_number(&bytes[start - 1]) {
        start -= 1;
    }
    // Only ASCII bytes were stepped over, so both ends are character boundaries.
    text.get(start..end).unwrap_or_default()
}

/// Judges one line (without its newline) against JSON-RPC and the tools of this server.
fn triage(line: &[u8], tools: &[&str]) -> Triage {
    let message = match read_object(line) {
        Ok(message) => message,
        Err(triage) => return triage,
    };
    let has = |key: &str| message.contains_key(key);
    let Some(id) = message.get("id") else {
        if !has("method") && !has("result") && !has("error") {
            // Neither a request, a notification nor a response (`{}`): JSON-RPC answers it.
            return Triage::Answer(error(
                &Value::Null,
                INVALID_REQUEST,
                "invalid request: a JSON-RPC message has a `method` (a request or a notification) or a `result` or `error` (a response)",
            ));
        }
        // A notification (or a malformed message without an id): never answered.
        return deliver_or_ignore(&Value::Object(message), "a notification");
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
    if has("method") && message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Triage::Answer(error(
            &answer_id,
            INVALID_REQUEST,
            "invalid request: `jsonrpc` must be \"2.0\"",
        ));
    }
    let method = match message.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(other) => {
            // It has an id, so it is a request, and asks for an answer.
            return Triage::Answer(error(
                &answer_id,
                INVALID_REQUEST,
                &format!(
                    "invalid request: `method` is `{}`; a request's method is a string, such as \"tools/call\"",
                    excerpt(&other.to_string())
                ),
            ));
        }
        None => {
            return match (has("result"), has("error")) {
                (false, false) => Triage::Answer(error(
                    &answer_id,
                    INVALID_REQUEST,
                    "invalid request: the message has an `id` but no `method`, `result` or `error`; a request has a `method` (and a response a `result` or an `error`)",
                )),
                (true, true) => Triage::Ignore(Some(format!(
                    "ignored an invalid response (id {}): it has both `result` and `error`, and a JSON-RPC response has one of them; responses are not answered",
                    excerpt(&id.to_string())
                ))),
                // A response to a request of the server's; rmcp matches it to the request.
                _ => deliver_or_ignore(&Value::Object(message), "a response"),
            };
        }
    };
    if let Some(problem) = unserved(&method) {
        return Triage::Answer(error(&answer_id, METHOD_NOT_FOUND, &problem));
    }
    if method == "tools/call"
        && let Some(problem) = call_problem(message.get("params"), tools)
    {
        return Triage::Answer(error(&answer_id, INVALID_PARAMS, &problem));
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
    // rmcp reads a served method whose params do not fit as a custom request, which it
    // then answers as an unknown method.
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(Value::Object(message)) {
        Ok(JsonRpcMessage::Request(request))
            if matches!(request.request, ClientRequest::CustomRequest(_)) =>
        {
            invalid_params()
        }
        Ok(message) => Triage::Deliver(Box::new(message)),
        Err(_) => invalid_params(),
    }
}

/// The message of the −32601 answer to a request for `method`, unless this server serves it.
fn unserved(method: &str) -> Option<String> {
    const SERVED: &str = "this server answers `initialize`, `ping`, `tools/list` and `tools/call`";
    if SERVED_METHODS.contains(&method) {
        return None;
    }
    let method = excerpt(method);
    Some(if method.starts_with("notifications/") {
        format!(
            "method not found: `{method}` is a notification, not a request: send it without an `id` (a notification gets no answer); {SERVED}"
        )
    } else if UNSERVED_METHODS.contains(&method.as_str()) {
        format!(
            "method not found: `{method}`; this server offers tools only (no resources, prompts, completions or logging): list them with `tools/list` and call one with `tools/call`"
        )
    } else {
        format!("method not found: `{method}`; {SERVED}")
    })
}

/// A message without an id, or a response: handed on when rmcp can read it, else dropped
/// (JSON-RPC answers neither) and logged as `kind`.
fn deliver_or_ignore(value: &Value, kind: &str) -> Triage {
    match <RxJsonRpcMessage<RoleServer> as serde::Deserialize>::deserialize(value) {
        Ok(message) => Triage::Deliver(Box::new(message)),
        Err(problem) => Triage::Ignore(Some(format!(
            "ignored {kind} that is not valid MCP (`{}`): {problem}",
            excerpt(&value.to_string())
        ))),
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
    /// Whether the input has ended.
    ended: bool,
    /// The lines to write, in order, to the writing task.
    write: mpsc::UnboundedSender<Vec<u8>>,
    /// The writing task, awaited on close so that every answer is written.
    writer: Option<tokio::task::JoinHandle<()>>,
    /// The tools of this server, for the answers to `tools/call`.
    tools: Vec<&'static str>,
    /// The requests handed on and neither answered nor cancelled yet, by the id rmcp knows
    /// them by, and the other way round (see **Ids** above).
    ids: RequestIds,
    /// Whether the session is initialised: `initialize` (or a request that carries its
    /// protocol version in `_meta`) has been answered.
    initialized: bool,
    /// The requests that initialise the session once answered, by rmcp's id.
    opening: HashSet<RequestId>,
    /// The session: its log, and why it ends.
    session: Arc<Session>,
}

/// The ids of the requests handed to rmcp and not answered yet: the client's id of each by
/// the id rmcp knows it by, and the other way round.
#[derive(Debug, Default)]
struct RequestIds {
    client_of: HashMap<RequestId, RequestId>,
    ours_of: HashMap<RequestId, RequestId>,
    /// The last id handed out.
    last: i64,
}

impl RequestIds {
    /// Records a request the client sent as `client`; the id to hand it on under, or
    /// `None` while a request with that id is not answered yet.
    fn open(&mut self, client: RequestId) -> Option<RequestId> {
        if self.ours_of.contains_key(&client) {
            return None;
        }
        self.last += 1;
        let ours = RequestId::Number(self.last);
        self.client_of.insert(ours.clone(), client.clone());
        self.ours_of.insert(client, ours.clone());
        Some(ours)
    }

    /// Closes the request rmcp answers as `ours`; the client's id for the answer, or
    /// `None` when the request was cancelled (or never handed on).
    fn answered(&mut self, ours: &RequestId) -> Option<RequestId> {
        let client = self.client_of.remove(ours)?;
        self.ours_of.remove(&client);
        Some(client)
    }

    /// Closes the request the client cancels as `client`; rmcp's id of it, or `None` when
    /// no request with that id is open. Its answer, should rmcp send one, is dropped.
    fn cancelled(&mut self, client: &RequestId) -> Option<RequestId> {
        let ours = self.ours_of.remove(client)?;
        self.client_of.remove(&ours);
        Some(ours)
    }

    /// How many requests are open.
    fn open_count(&self) -> usize {
        self.client_of.len()
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> LineTransport<R> {
    /// A transport reading `read` and writing `write` (on a task of its own), for a server
    /// with `tools`, in `session`. Must be called inside a tokio runtime.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(
        read: R,
        write: W,
        tools: Vec<&'static str>,
        session: Arc<Session>,
    ) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let writer = tokio::spawn(write_lines(write, receiver));
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            ended: false,
            write: sender,
            writer: Some(writer),
            tools,
            ids: RequestIds::default(),
            initialized: false,
            opening: HashSet::new(),
            session,
        }
    }

    /// Queues one JSON value as a line.
    fn queue(&self, value: &Value) -> bool {
        let mut line = value.to_string().into_bytes();
        line.push(b'\n');
        self.write.send(line).is_ok()
    }

    /// Reads up to the next newline into `self.line`: the last line ends at the end of the
    /// input, with or without its newline. Cancellation-safe: bytes are consumed only as
    /// they are copied into `self.line`.
    async fn read_line(&mut self) -> std::io::Result<LineEnd> {
        if self.ended {
            return Ok(LineEnd::Eof);
        }
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                self.ended = true;
                let last = !self.skipping && !self.line.is_empty();
                return Ok(if last { LineEnd::Line } else { LineEnd::Eof });
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

    /// What to hand rmcp of a message it can read, if anything; answers or logs the rest.
    /// `Err` when the output is closed.
    fn admit(
        &mut self,
        message: RxJsonRpcMessage<RoleServer>,
    ) -> Result<Option<RxJsonRpcMessage<RoleServer>>, ClosedError> {
        match message {
            JsonRpcMessage::Request(mut request) => {
                let client = request.id.clone();
                let client_id = serde_json::to_value(&client).unwrap_or(Value::Null);
                let opens = matches!(request.request, ClientRequest::InitializeRequest(_))
                    || request.request.get_meta().protocol_version().is_some();
                if !self.initialized
                    && !opens
                    && !matches!(request.request, ClientRequest::PingRequest(_))
                {
                    let answer = error(
                        &client_id,
                        INVALID_REQUEST,
                        "invalid request: the session is not initialised; send `initialize` first (then the `notifications/initialized` notification), and this request again",
                    );
                    return self.answer(&answer);
                }
                let Some(ours) = self.ids.open(client) else {
                    let answer = error(
                        &client_id,
                        INVALID_REQUEST,
                        "invalid request: a request with this `id` is not answered yet; give each request an id of its own",
                    );
                    return self.answer(&answer);
                };
                if !self.initialized && opens {
                    self.opening.insert(ours.clone());
                }
                request.id = ours;
                Ok(Some(JsonRpcMessage::Request(request)))
            }
            JsonRpcMessage::Notification(mut notification) => {
                if !self.initialized {
                    let method = serde_json::to_value(&notification)
                        .ok()
                        .and_then(|value| value.get("method")?.as_str().map(excerpt))
                        .unwrap_or_default();
                    self.session.log(&format!(
                        "ignored the notification `{method}` sent before `initialize`"
                    ));
                    return Ok(None);
                }
                if let ClientNotification::CancelledNotification(cancelled) =
                    &mut notification.notification
                    && let Some(client) = &cancelled.params.request_id
                {
                    // Nothing open has that id (it was answered): nothing to hand on.
                    let Some(ours) = self.ids.cancelled(client) else {
                        return Ok(None);
                    };
                    cancelled.params.request_id = Some(ours);
                }
                Ok(Some(JsonRpcMessage::Notification(notification)))
            }
            other => {
                if !self.initialized {
                    self.session.log(
                        "ignored a response sent before `initialize`; the server has asked nothing",
                    );
                    return Ok(None);
                }
                Ok(Some(other))
            }
        }
    }

    /// Queues `answer`; nothing for rmcp.
    fn answer(&self, answer: &Value) -> Result<Option<RxJsonRpcMessage<RoleServer>>, ClosedError> {
        if self.queue(answer) {
            Ok(None)
        } else {
            Err(ClosedError)
        }
    }

    /// The client's id for rmcp's answer to `ours`; `None` for a cancelled request.
    fn answered(&mut self, ours: &RequestId, succeeded: bool) -> Option<RequestId> {
        if self.opening.remove(ours) && succeeded {
            self.initialized = true;
        }
        self.ids.answered(ours)
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
        // An answer goes out under the client's id; that of a cancelled request not at all.
        let item = match item {
            JsonRpcMessage::Response(mut response) => match self.answered(&response.id, true) {
                Some(client) => {
                    response.id = client;
                    Some(JsonRpcMessage::Response(response))
                }
                None => None,
            },
            JsonRpcMessage::Error(mut answer) => match answer.id.take() {
                Some(ours) => self.answered(&ours, false).map(|client| {
                    answer.id = Some(client);
                    JsonRpcMessage::Error(answer)
                }),
                None => Some(JsonRpcMessage::Error(answer)),
            },
            other => Some(other),
        };
        let sent = match item.map(|item| serde_json::to_vec(&item)) {
            None => true,
            Some(Ok(mut line)) => {
                line.push(b'\n');
                self.write.send(line).is_ok()
            }
            Some(Err(_)) => false,
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
                Ok(LineEnd::Eof) | Err(_) => {
                    self.session.end("the client closed the connection");
                    let open = self.ids.open_count();
                    if open > 0 {
                        self.session.log(&format!(
                            "the client closed the connection (standard input ended); {} still running get{} up to {DRAIN_SECONDS} seconds to finish, then {} stopped",
                            if open == 1 { "the call" } else { "the calls" },
                            if open == 1 { "s" } else { "" },
                            if open == 1 { "it is" } else { "they are" },
                        ));
                    }
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let content = line.strip_suffix(b"\n").unwrap_or(&line);
            let admitted = match triage(content, &self.tools) {
                Triage::Deliver(message) => self.admit(*message),
                Triage::Answer(answer) => self.answer(&answer),
                Triage::Ignore(why) => {
                    if let Some(why) = why {
                        self.session.log(&why);
                    }
                    Ok(None)
                }
            };
            match admitted {
                Ok(Some(message)) => return Some(message),
                Ok(None) => {}
                Err(ClosedError) => return None,
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
        numeric_method: b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}" => (json!(1), INVALID_REQUEST, "`method` is `5`; a request's method is a string");
        null_method: b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":null}" => (json!(2), INVALID_REQUEST, "`method` is `null`");
        array_method: b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":[\"ping\"]}" => (json!(4), INVALID_REQUEST, "`method` is `[\"ping\"]`");
        only_an_id: b"{\"jsonrpc\":\"2.0\",\"id\":3}" => (json!(3), INVALID_REQUEST, "has an `id` but no `method`, `result` or `error`");
        only_an_id_without_version: b"{\"id\":\"x\"}" => (json!("x"), INVALID_REQUEST, "has an `id` but no `method`");
        resources_list: b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}"
            => (json!(5), METHOD_NOT_FOUND, "method not found: `resources/list`; this server offers tools only (no resources, prompts, completions or logging): list them with `tools/list`");
        set_level_with_params: b"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}"
            => (json!(6), METHOD_NOT_FOUND, "this server offers tools only");
        notification_with_an_id: b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}"
            => (json!(7), METHOD_NOT_FOUND, "`notifications/cancelled` is a notification, not a request: send it without an `id`");
        count_out_of_range: b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"astrix_evaluate_policy\",\"arguments\":{\"n\":1e400}}}"
            => (json!(8), INVALID_PARAMS, "the number `1e400` is out of range: the message is valid JSON");
        long_integer_out_of_range: b"{\"jsonrpc\":\"2.0\",\"id\":\"n\",\"method\":\"ping\",\"params\":{\"n\":-2e999}}"
            => (json!("n"), INVALID_PARAMS, "the number `-2e999` is out of range");
        id_out_of_range: b"{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}" => (Value::Null, INVALID_REQUEST, "the number `1e400` is out of range");
        out_of_range_but_not_json: b"{\"a\":1e400 ]" => (Value::Null, PARSE_ERROR, "the line is not JSON");
    }

    fn ignored(line: &[u8]) -> Option<String> {
        match triage(line, TOOLS) {
            Triage::Ignore(why) => why,
            other => panic!("{}: {other:?}", String::from_utf8_lossy(line)),
        }
    }

    #[test]
    fn invalid_responses_and_notifications_are_logged_not_answered() {
        let both = ignored(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}").unwrap();
        assert!(
            both.contains("invalid response (id 9): it has both `result` and `error`"),
            "{both}"
        );
        let notification = ignored(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"n\":1e400}}",
        )
        .unwrap();
        assert!(
            notification.starts_with("ignored a notification: the number `1e400`"),
            "{notification}"
        );
        let response = ignored(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"n\":1e400}}").unwrap();
        assert!(
            response.starts_with("ignored a response: the number"),
            "{response}"
        );
        let malformed = ignored(b"{\"method\":5}").unwrap();
        assert!(
            malformed
                .starts_with("ignored a notification that is not valid MCP (`{\"method\":5}`)"),
            "{malformed}"
        );
        assert_eq!(ignored(b"  "), None);
    }

    #[test]
    fn the_number_out_of_range_is_found_around_its_column() {
        assert_eq!(number_ending_at("{\"a\":1e400}", 10), "1e400");
        assert_eq!(number_ending_at("{\"a\":1e400}", 8), "1e400");
        assert_eq!(number_ending_at("{\"a\":1e400}", 99), "");
        assert_eq!(number_ending_at("", 1), "");
    }

    #[test]
    fn ids_are_ours_until_answered_and_a_cancelled_one_is_free_at_once() {
        let mut ids = RequestIds::default();
        let client = RequestId::Number(7);
        let first = ids.open(client.clone()).unwrap();
        assert_ne!(first, client);
        // Not answered yet: a second request with the id is refused.
        assert_eq!(ids.open(client.clone()), None);
        // Cancelled: the id is free again, under a new id of ours.
        assert_eq!(ids.cancelled(&client), Some(first.clone()));
        let second = ids.open(client.clone()).unwrap();
        assert_ne!(second, first);
        // The cancelled request's answer has nowhere to go; the new one's has.
        assert_eq!(ids.answered(&first), None);
        assert_eq!(ids.answered(&second), Some(client.clone()));
        assert_eq!(ids.cancelled(&client), None);
        assert_eq!(ids.open_count(), 0);
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
                matches!(triage(line, TOOLS), Triage::Ignore(_)),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}
