//! Renderers for decisions and other results: text for people, JSON for programs.
