//! The crawl loop as a library: everything between "here is a forum's portal and a store" and
//! "the store holds the forum", shared by `trawl crawl`, the fleet's workers, the demo and the
//! benchmarks.
//!
//! A crawl lives in its store, not in the process running it. [`open_crawl`] either begins a
//! new crawl (learning its plan through a closure the caller gives, so that sampling can print
//! its own progress or keep its pages) or rebuilds the crawler exactly where the store says the
//! last run stood, with the strategy and frontier order the crawl began with. [`drive`] then
//! fetches and analyses pages on worker threads and applies them to the crawler and the store on
//! one thread, in the order they were asked for, so that however the workers' timings fall, a
//! crawl fetches the same pages and a killed one resumes to the same end. A drive ends by reading
//! again, from their stored bodies, the pages fetched before their vertex's post patterns were
//! known (`read_again`), so which posts a page gives does not depend on the order pages came in.
//! [`drive_with_relearning`] learns the plan again when the forum's templates change under the
//! crawl, and [`close_gaps`] ends a crawl that ran dry by auditing it against the forum's own
//! counts and asking for what the audit names as missing.
//!
//! Learning is resumable ([`kept_samples`]): every page sampled to learn a plan is kept in the
//! store as it arrives, a learning cut short goes on from those pages, and when the plan is
//! stored the crawl takes the kept responses over (they answer its first requests for the same
//! URLs while still fresh, [`SampledAnswers`]). The store lets each go in the transaction that
//! stores the page of its URL, and the rest when the crawl runs dry ([`close_gaps`]), so that
//! each URL is fetched once, even by a crawl resumed after a kill, and a fleet of hundreds of
//! forums does not keep its samples for ever.
//!
//! The crate does no printing: progress comes back through callbacks, and failures as
//! [`RunError`]. Functions that call back into the caller's own fallible code (learning a plan,
//! sampling) are generic over the caller's error type, which needs only to take a [`RunError`]
//! in, so that a command's error chain passes through untouched.

mod audit_of_pages;
mod drive;
mod gaps;
pub mod kept_samples;
mod open;
mod order;
mod read_again;
mod sampled_answers;
mod stored_lists;

pub use audit_of_pages::audit_of_stored_pages;
pub use drive::{
    CrawlEnd, CrawlProgress, DriveOptions, MAX_RELEARNS_PER_RUN, TEMPLATE_CHANGE_SHARE,
    TEMPLATE_CHANGE_WINDOW, TemplateChange, drive, drive_with_relearning,
};
pub use gaps::{GapClosing, audit_store, close_gaps, stored_crawler};
pub use kept_samples::{KeptSamples, ResumedSampling, sample_resumably};
pub use open::{BREADTH_FIRST_STRATEGY, OpenedCrawl, PLAN_STRATEGY, open_crawl, stored_strategy};
pub use order::{CrawlOrder, OrderError, priority_of, settled_order};
pub use sampled_answers::{SAMPLE_REUSE_AGE, SampledAnswers};
pub use stored_lists::assemble_stored_lists;
pub use trawl_watch::stored::resume_crawler;

use trawl_store::StoreError;

/// Why a crawl could not be opened, driven or audited.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The store refused a read or a write.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store holds the crawl of another forum.
    #[error(
        "{location} holds a crawl of {stored}, not of {asked}; rerun with that URL to resume it, \
         or choose another --db file for a new crawl"
    )]
    OtherPortal {
        /// The store.
        location: String,
        /// The portal its crawl began with.
        stored: String,
        /// The portal asked for.
        asked: String,
    },
    /// The store holds a plan crawl but no plan.
    #[error("{location} holds a plan crawl without its plan")]
    PlanMissing {
        /// The store.
        location: String,
    },
    /// The stored plan cannot be read.
    #[error("the plan stored in {location} is not usable")]
    PlanUnusable {
        /// The store.
        location: String,
        /// Why the plan could not be read.
        source: trawl_learn::plan::PlanError,
    },
    /// The store names a strategy this program does not know.
    #[error("{location} holds a crawl with the unknown strategy {name:?}")]
    UnknownStrategy {
        /// The store.
        location: String,
        /// The strategy's name.
        name: String,
    },
    /// The store holds no crawl at all.
    #[error("{location} holds no crawl")]
    NoCrawl {
        /// The store.
        location: String,
    },
    /// The store names a portal that is not a URL.
    #[error("{location} names a portal that is not a URL: {portal}")]
    PortalNotUrl {
        /// The store.
        location: String,
        /// What it names.
        portal: String,
    },
    /// The frontier order the crawl holds or is asked for cannot be used.
    #[error(transparent)]
    Order(#[from] OrderError),
    /// The threads fetching and analysing pages ended before the crawl did.
    #[error("the crawl's worker threads stopped")]
    WorkersStopped,
    /// A batch of fetched pages could not be written.
    #[error("cannot store {pages}; is the disk full? Rerun the same command to resume")]
    CannotStore {
        /// The pages, in words.
        pages: String,
        /// Why the store refused them.
        source: StoreError,
    },
}
