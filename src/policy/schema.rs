//! INTERFACE STUB — the JSON Schema of Astrixfile.ax.

/// The JSON Schema of Astrixfile.ax.
pub fn astrixfile_schema() -> serde_json::Value {
    serde_json::Value::Null
}
