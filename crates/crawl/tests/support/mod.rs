//! Test support shared by the crawl tests.

pub mod handmade;
