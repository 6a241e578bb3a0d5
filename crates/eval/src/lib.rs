//! The evaluation harness: how trawl's figures are measured.
//!
//! Every figure in docs/BENCHMARKS.md that is a quality rather than a speed comes from here, so
//! that a change is judged the same way by the benchmark commands, the tests and the demo. Three
//! kinds of yardstick meet in this crate:
//!
//! - **Gold pages.** [`wf52`] reads the WEB-FORUM-52 pages and scores post extraction by the
//!   reference scorer's corrected rules (the forum's own day/month order, only the fields a gold
//!   form states, profile-link authors by address). Its per-page rows equal the Python scorer's.
//! - **Simulator truth.** [`sim_extraction`] scores page analysis on every simulator family
//!   (posts, thread entries, pages that must hold no post); [`learning`] samples a simulated forum
//!   in process, learns its plan, crawls with it and judges the sitemap and every fetch by the
//!   truth ([`learning::FetchTally`] is the one way fetches are counted, shared with the crawl
//!   benchmark of the command-line program).
//! - **Robustness.** [`fuzz`] throws mangled real pages and random markup at page analysis and at
//!   both tokenizers for a while and stops at the first input that panics or splits them.
//!
//! - **Freshness.** [`freshness`] replays a revisit policy (`trawl-schedule`) on a simulated
//!   forum or the papers' 18-forum corpus in simulated time, from an empty store at the portal,
//!   under a budget of fetches a day, and measures utilisation, coverage, delays and posts lost,
//!   per day and over the stable stage; it also makes the policy-by-budget table and plots.
//!
//! - **The fleet.** [`fleet`] serves many simulated forums on loopback with a per-request
//!   latency, crawls them with `trawl worker` processes on one PostgreSQL database and with one
//!   `trawl crawl` process per forum, and counts at the servers how politely each way fetched.
//!
//! [`speed`] measures the simulator's rendering and serving rates, the corpus build and page
//! analysis on real pages. [`curve`] draws a learning curve as SVG. The crate runs crawls and fetches through the
//! [`trawl_model::Fetcher`] seam (in process against the simulator) and reads and writes only the
//! files it is told to; printing tables is left to the command-line program, which only parses
//! arguments and prints. Errors are one typed [`EvalError`].

pub mod curve;
mod error;
pub mod fleet;
pub mod freshness;
pub mod fuzz;
pub mod html_report;
pub mod learning;
pub mod sim_extraction;
pub mod speed;
pub mod wf52;

pub use error::{EvalError, Result};
