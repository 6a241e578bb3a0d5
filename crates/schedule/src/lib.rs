//! ESSAY PLACEHOLDER
mod baselines;
mod board;
mod lists;
mod lws;
pub mod optimal;
mod policy;
mod regression;
#[cfg(test)]
mod random;
mod stats;
mod trawl;
#[cfg(test)]
mod toy;

pub use lists::{
    ACTIVITY_KEPT_SECONDS, ActivityKind, BoardActivity, FetchedPage, ListChange, ListId, ListKind,
    ListState, Lists, PageContent, PageSeen, SiteId, ThreadEntry,
};
pub use baselines::{
    AdaptiveRevisit, AdaptiveRule, NutchSettings, PageTimer, PoissonRate, RoundRobin,
    StormCrawlerSettings, cho_garcia_molina_rate, nutch_update, stormcrawler_update,
};
pub use board::{
    BoardAllocation, BoardBased, BoardConfig, activity_histogram, board_weight, daily_activity,
    equal_area_points, even_points, visits_per_board,
};
pub use lws::{ListWise, ListWiseConfig};
pub use policy::{CARRY_LIMIT_DAYS, PageRequest, Policy, Scheduler, Window};
pub use regression::{NormalEquations, predict};
pub use trawl::{Trawl, TrawlConfig};
pub use stats::{FEATURE_COUNT, ListStatistics, RECENT_INTERVALS, features};

/// What the scheduler refuses.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("list {0:?} is not known: register boards before recording their pages")]
    UnknownList(ListId),
    #[error("list {0:?}: pages are numbered from 1")]
    PageZero(ListId),
    #[error("list {0:?}: posts recorded for an index list or entries for a post list")]
    ContentKind(ListId),
    #[error("a window must end after it starts")]
    EmptyWindow,
    #[error("a regression needs at least one example")]
    NoExamples,
    #[error("the normal equations are singular")]
    SingularSystem,
}
