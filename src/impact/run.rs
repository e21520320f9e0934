//! Running test commands.
