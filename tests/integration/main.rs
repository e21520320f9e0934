//! End-to-end tests: the built binary against real temporary git repositories.

mod common;

mod cli;
mod evaluate;
mod install;
mod policy_commands;
