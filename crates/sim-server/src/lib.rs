//! HTTP server for simulated forums.
