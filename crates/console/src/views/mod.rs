//! The console's views, written as HTML on the server from what [`crate::data`] reads.

pub mod crawl;
pub mod freshness;
pub mod plan;
