//! The papers' corpus.
