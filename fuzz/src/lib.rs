//! Helpers shared by the fuzz targets: an exact decimal oracle that never touches
//! `rust_decimal`, and the structured model of policies and intents used by `evaluate`.

pub mod globs;
pub mod model;
pub mod oracle;
