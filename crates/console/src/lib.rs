//! The web console of `trawl serve`: a crawl seen and steered in the browser.
//!
//! Archivists watch their crawls through a web console (Heritrix's, grab-site's dashboard), and
//! iRobot's authors inspected each learned sitemap before trusting it. trawl's terminal lines
//! say how a crawl goes, but a plan of thirty vertices and hundreds of arcs, or the gaps an
//! audit names across a forum, are things people would rather look at than read. This crate is
//! that console: a small web application over a crawl's store, either backend, one crawl or a
//! fleet's many.
//!
//! # What it shows
//!
//! - The crawl's progress (pages, posts, rate, frontier, errors), refreshing itself while the
//!   last fetch is recent, as it is while `trawl crawl`, `trawl watch` or a fleet's worker
//!   writes the store.
//! - The plan: the sitemap as a graph laid out on the server ([`layout`]: layers from the
//!   portal, boxes sized by sampled pages, labels that never overlap), drawn as SVG
//!   ([`graph`]) with the traversal highlighted and page-flipping loops marked; each vertex
//!   with its sampled pages, its pages in the store and what was read from them, and its arcs
//!   with their URL patterns, locations and decisions; a page of a vertex drawn with the
//!   repetitive regions page analysis finds on it outlined ([`render`]: the stored HTML
//!   written again without scripts, styles or anything that loads).
//! - A change of decisions, previewed by what it adds to or removes from the pages the plan
//!   reaches by the sample ([`plan_edit`]), and saved as a new plan generation: the changed
//!   plan's file text, checked by reading it back as `trawl crawl --plan` would, replaces the
//!   stored plan through [`trawl_store::Store::replace_plan_decisions`], a new generation as a
//!   crawl makes when it learns its plan again, but one whose vertex numbers still name the
//!   same vertices. A save names the generation its form was made from and is refused when the
//!   store has moved on since, so two people cannot overwrite each other. Every link to a
//!   vertex names the plan generation it was made under: once the plan is learned again
//!   (vertex numbers then name other vertices) the link answers that it is stale instead of
//!   showing another vertex, and a vertex shows only the pages fetched under plans numbering
//!   vertices as the plan now does ([`trawl_store::Store::plan_vertices_since`]).
//! - Freshness, once `trawl watch` keeps the crawl fresh: per forum and per board, the delays
//!   of the posts the watch stored (their distribution and their mean day by day), the budget
//!   spent discovering pages against refreshing known ones, each board's polls, and the
//!   fetches planned next, read through the watch's public snapshot
//!   ([`trawl_watch::snapshot`]) and plotted on the server like the freshness benchmark's
//!   figures ([`plots`]).
//! - The audit's gaps by board and thread, with links to the pages involved, and a thread
//!   reader showing a thread put back together from its pages with its authors and times
//!   ([`data`]).
//!
//! # How it is built
//!
//! axum on a tokio runtime of its own, as the simulator's server. The store is synchronous, so
//! every view reads it on tokio's blocking threads; each request opens the store anew (read
//! only, but for a save), which lets a crawl go on writing it and never leaves a lock held
//! between requests. The overview reads the totals the store keeps as the crawl writes
//! ([`trawl_store::Store::summary`]), so it never waits for pages to be read or the frontier
//! to be counted (a store written before the totals, opened read only, is counted as before).
//! The other views read the pages, which are kept: when the store's page count moves only the
//! pages fetched since are read ([`data::Cache`]). The audit reads the digests the store keeps
//! of every page as it is written ([`trawl_store::Store::audit_pages`]: links that could be
//! pages of a list, posts as identities), never a body or a post's text, so a new audit of
//! 100,000 pages takes a fraction of a second; it and the reassembled threads (seconds on such
//! a crawl) are still made on threads of their own while the views show the last ones made and
//! say so, so that no view waits on them. Every view thus answers in milliseconds once the crawl
//! has been read (docs/BENCHMARKS.md); while a big crawl is first read, on a thread of its own,
//! the views but the overview say how far the reading is.
//! Every view is plain HTML written on the server; the stylesheet and a small script for
//! keyboard shortcuts and arrow-key moves through the graph are compiled into the binary, so no
//! view needs the network beyond the console itself. Everything works without the script too.
//!
//! The console binds to loopback unless told otherwise; on another address every request must
//! show a token ([`access`]).

pub mod access;
pub mod data;
pub mod freshness;
pub mod graph;
pub mod html;
pub mod layout;
pub mod plan_edit;
pub mod plots;
pub mod render;
mod server;
pub mod views;

use std::net::SocketAddr;

use trawl_store::{StoreError, StoreLocation};

pub use server::RunningConsole;

/// Everything that can stop the console from starting or a view from being shown.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// The store could not be opened or read.
    #[error("cannot read the crawl database")]
    Store(#[source] StoreError),
    /// The store holds no crawl.
    #[error("{database} holds no crawl; crawl first with `trawl crawl URL --db {database}`")]
    NoCrawl {
        /// The database.
        database: String,
    },
    /// The stored plan does not read.
    #[error("the stored plan cannot be read")]
    Plan(#[source] trawl_learn::plan::PlanError),
    /// The crawl's pages could not be read; the words say why.
    #[error("cannot read the crawl's pages: {0}")]
    Reading(String),
    /// The audit could not read the crawl.
    #[error("cannot audit the crawl")]
    Audit(#[source] trawl_run::RunError),
    /// The address could not be bound.
    #[error("cannot listen on {address}")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The runtime, the serving thread or the token could not be made.
    #[error("cannot start the console")]
    Start(#[source] std::io::Error),
}

/// An error and its causes, each once, as the CLI prints them.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut words = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        words.push_str(": ");
        words.push_str(&next.to_string());
        cause = next.source();
    }
    words
}

/// How to start the console.
#[derive(Debug, Clone)]
pub struct ConsoleOptions {
    /// The crawl database.
    pub location: StoreLocation,
    /// Where to listen.
    pub address: SocketAddr,
    /// The token every request must show; `None` on a loopback address means none is needed,
    /// and on any other address that one is generated.
    pub token: Option<String>,
}

/// Checks the store, binds the address and serves the console on a thread of its own.
pub fn start(options: ConsoleOptions) -> Result<RunningConsole, ConsoleError> {
    server::start(options)
}
