//! End-to-end tests: the built binary against real temporary git repositories.

// `cfg(test)` marks the modules as test code for clippy (`allow-expect-in-tests`).
#[cfg(test)]
mod repo;
#[cfg(test)]
mod staged;
