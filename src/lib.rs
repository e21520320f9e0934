//! astrix: a commit-time guardrail for repositories that autonomous coding agents work in.
//!
//! The library is organised as parse → validate → evaluate, with IO only at the edges:
//! [`intent`] (the ActionIntent model), [`policy`] (Astrixfile.ax), [`eval`] (the pure
//! decision), [`report`] (text and JSON renderers), [`git`] (the only module that touches
//! the repository), [`env`](mod@env) (the only module that reads environment variables)
//! and [`mcp`] (the MCP server).

pub mod app;
pub mod approvals;
pub mod audit;
pub mod cli;
pub mod commands;
pub mod commit_actor;
pub mod context;
pub mod diagnostic;
pub mod env;
pub mod eval;
pub mod exit;
pub mod gate;
pub mod git;
pub mod harness;
pub mod impact;
pub mod intent;
pub mod linediff;
pub mod mcp;
pub mod policy;
pub mod report;
pub mod tamper;
pub mod time;

pub use app::run;
pub use exit::ExitStatus;
