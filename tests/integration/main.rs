//! End-to-end tests: the built binary against real temporary git repositories.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::disallowed_methods,
    clippy::missing_panics_doc,
    reason = "test code: a failed setup step is a failed test"
)]

mod common;

mod agents;
mod backstop;
mod blast;
mod ci;
mod cli;
mod compat;
mod distribution;
mod evaluate;
mod facts;
mod faults;
mod gate;
mod history;
mod install;
mod mcp;
mod policy_commands;
mod repo;
mod scale;
mod staged;
mod tamper_evasions;
mod tampering;
