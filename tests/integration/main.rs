//! End-to-end tests: the built binary against real temporary git repositories.
