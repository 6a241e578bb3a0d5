//! Revisit policies: which page of which list to fetch when, to keep a forum archive fresh under a
//! budget of fetches.
//!
//! After the first crawl a forum keeps growing at two ends: new threads appear at the top of
//! board lists, new posts at the ends of threads. A crawler allowed B fetches a day wants each
//! new post stored as soon after it is written as possible and none lost. This crate decides the
//! fetches. It is pure: no network, no disk, no clock, no async runtime. Instants come in as
//! arguments ([`jiff::Timestamp`] at the seams, Unix seconds inside), so the same code runs a
//! simulated year in seconds and a live `trawl watch` at the speed of the wall clock.
//!
//! # The model
//!
//! Both papers on incremental forum crawling schedule *lists*, not pages, and so does everything
//! here. An index list is all pages of a board's thread list, sorted by last post (page 1 shows
//! the newest activity); a post list is all pages of one thread (the last page shows the newest
//! posts). [`Lists`] keeps what the crawl has seen of each (record times, records per page, page
//! counts, per-page signatures, the backlog of pages known and never fetched, each board's posts
//! by creation time), and [`Lists::record`] turns one fetched page into a [`ListChange`]: new
//! threads, threads whose entry shows activity the store lacks, new posts, whether the list moved
//! further than the page. [`ListStatistics`] gives the list-wise paper's per-list statistics and
//! its dead-thread indicator.
//!
//! # The seam
//!
//! A [`Policy`] plans a window's fetches for a budget ([`Policy::plan`]) and learns from each
//! fetched page ([`Policy::observe`]), answering with follow-ups to fetch at once: the pages of a
//! thread just discovered, the next page of a list that moved further than the page read. The
//! [`Scheduler`] holds the lists and a policy and is all a driver needs: register boards, ask for
//! a plan, hand back each fetched page. Unspent budget may carry into later windows up to a
//! quarter of a day's, so a policy that follows the day's cycle can save at night for the peak.
//!
//! # The policies
//!
//! - The list-wise strategy ([`ListWise`], `lws`, and with bandwidth control `lws-bc`): per-site
//!   linear regressions by the normal equations predict each list's arrival rate from its
//!   statistics; ΔI = (CT − LT)·F(x) new records are expected; lists with most are revisited,
//!   an index list on its first ⌈ΔI / records per page⌉ pages, a thread on its last page;
//!   bandwidth control splits the budget between index and post lists in proportion to the
//!   updates each kind really showed.
//! - The board-based method ([`BoardBased`], `bic-bra`, and the ablations `era`, `wra`, `lra`):
//!   BIC reads a board's pages until one shows nothing new or bumped and fetches what changed;
//!   BRA shares a day's board visits by WP = Ws·Wp·(Ng + θ·Nr) and places them where the board's
//!   24-hour activity histogram splits into equal areas, once a day, for the room the day is
//!   expected to leave them.
//! - Baselines: uniform round-robin ([`RoundRobin`]), breadth-first re-crawl of every page
//!   ([`BreadthFirst`], `bfs`), polling in proportion to change rates estimated by Cho and
//!   Garcia-Molina's estimator ([`PoissonRate`]), Olston and Pandey's `curve-fitting` and
//!   `bound-based` refresh thresholds as the list-wise paper adapted them ([`Longevity`]), and the
//!   per-page adaptive intervals of Apache Nutch and StormCrawler with their defaults
//!   ([`AdaptiveRevisit`]).
//! - Two oracles, bounds rather than policies: `oracle` ([`ArrivalOracle`]) is told every post
//!   before it is written and fetches its page at that instant; `rate-oracle`
//!   ([`Trawl::rate_oracle`]) is told every list's true hourly rates and polls optimally for
//!   them. Their knowledge comes in explicitly ([`Knowledge`], [`policy_with_knowledge`]).
//! - Ours, the default ([`Trawl`], `trawl`).
//! - Re-crawling ranked by where users find new pages ([`DiscoveryRanked`], `behaviour`): every
//!   fetched page revisited at a frequency proportional to the square root of a discovery score
//!   the driver gives per page ([`PageScores`], from the behaviour crate's discovery ranking of
//!   the page's URL pattern). It needs those scores, so it is built with
//!   [`DiscoveryRanked::new`], not by name, and is not in [`POLICY_NAMES`].
//!
//! # Why ours is built the way it is
//!
//! Each paper gets one thing right and leaves value behind. The list-wise paper is right that the
//! list is the unit and that only its newest page needs reading; but it learns each thread's
//! rate separately, so a thread it predicts quiet is not looked at when it wakes, and its ranking
//! by predicted new records spends polls where records are expected rather than where a poll
//! saves most delay. The board paper is right that a board's first page reveals every thread with
//! news, so one poll finds all of them, and that activity follows the day; but it shares polls
//! in proportion to activity, across boards (WRA) and across the hours (LRA), and for mean delay
//! under Poisson arrivals proportional polling is exactly as good as uniform polling: a record on
//! list i waits half a polling gap, so D = Σλᵢ/(2fᵢ)/Λ, which is N/(2B) both for fᵢ = B/N and for
//! fᵢ = Bλᵢ/Λ. The optimum is fᵢ ∝ √λᵢ, D* = (Σ√λᵢ)²/(2BΛ), and with rates that vary over the
//! day fᵢ(t) ∝ √λᵢ(t) with one Lagrange multiplier for all boards and hours (the structure of
//! Azar et al., PNAS 2018, and Kolobov et al., 2019; [`optimal`] derives it and its tests
//! reproduce the closed forms on simulated Poisson arrivals).
//!
//! So ours polls boards, not threads (one poll reveals every changed thread, and a changed
//! thread costs one fetch whoever finds it), at the square-root rates of their hourly activity
//! read from the stored posts of the last 20 days and shrunk towards the site's daily shape,
//! with the multiplier found by bisection so that polls fill what the follow-ups leave: the
//! split between discovery (board polls) and refresh (thread fetches) is measured, not fixed.
//! Every board is polled at least daily, and a poll walks on while the whole list page moved, so
//! a burst that pushes threads past the first page loses nothing. Boards whose entries do not
//! say which threads grew have their threads polled directly, as units of the same allocation.
//!
//! # What is not here
//!
//! The replay harness (the `trawl-eval` crate) and `trawl watch` drive this crate from outside;
//! the tests here drive the policies through a toy forum of their own (`toy`, test-only), which
//! is not the simulator.
mod baselines;
mod board;
#[cfg(test)]
mod charging_tests;
mod discovery;
mod lists;
mod longevity;
mod lws;
pub mod optimal;
mod oracle;
mod policy;
#[cfg(test)]
mod random;
mod regression;
mod saved;
mod stats;
#[cfg(test)]
mod toy;
mod trawl;

pub use baselines::{
    AdaptiveRevisit, AdaptiveRule, BreadthFirst, NutchSettings, PageTimer, PoissonRate, RoundRobin,
    StormCrawlerSettings, cho_garcia_molina_rate, nutch_update, stormcrawler_update,
};
pub use board::{
    BoardAllocation, BoardBased, BoardConfig, activity_histogram, board_weight, daily_activity,
    equal_area_points, even_points, visits_per_board,
};
pub use discovery::{DiscoveryRanked, PageScores};
pub use lists::{
    ACTIVITY_KEPT_SECONDS, ActivityKind, BoardActivity, FetchedPage, ListChange, ListId, ListKind,
    ListState, Lists, PageContent, PageSeen, SiteId, ThreadEntry, infer_pins,
};
pub use longevity::{Longevity, LongevityModel, SAMPLES_KEPT};
pub use lws::{ListWise, ListWiseConfig};
pub use oracle::{Arrival, ArrivalOracle, KnownArrivals, KnownRates};
pub use policy::{CARRY_LIMIT_DAYS, PageRequest, Policy, Scheduler, Window};
pub use regression::{NormalEquations, predict};
pub use stats::{FEATURE_COUNT, ListStatistics, RECENT_INTERVALS, features};
pub use trawl::{Trawl, TrawlConfig};

/// Every policy's name, as the command line spells them; the first is the default.
pub const POLICY_NAMES: [&str; 16] = [
    "trawl",
    "oracle",
    "rate-oracle",
    "lws",
    "lws-bc",
    "bic-bra",
    "era",
    "wra",
    "lra",
    "uniform",
    "bfs",
    "poisson",
    "curve-fitting",
    "bound-based",
    "nutch",
    "stormcrawler",
];

/// What an oracle is told about the forum, by the driver that knows its truth.
#[derive(Clone, Debug)]
pub enum Knowledge {
    /// Every post's arrival (`oracle`).
    Arrivals(KnownArrivals),
    /// Every list's true hourly arrival rates (`rate-oracle`).
    Rates(KnownRates),
}

/// The knowledge a policy needs, by name: `Some` for the two oracles.
pub fn knowledge_needed(name: &str) -> Option<&'static str> {
    match name {
        "oracle" => Some("arrivals"),
        "rate-oracle" => Some("rates"),
        _ => None,
    }
}

/// The policy of that name with its default settings; `None` for an unknown name and for the
/// oracles, which need [`policy_with_knowledge`].
pub fn policy_named(name: &str) -> Option<Box<dyn Policy>> {
    policy_with_knowledge(name, None).ok()
}

/// The policy of that name, given the knowledge an oracle needs (ignored by the others).
pub fn policy_with_knowledge(
    name: &str,
    knowledge: Option<Knowledge>,
) -> Result<Box<dyn Policy>, ScheduleError> {
    let policy: Box<dyn Policy> = match (name, knowledge) {
        ("oracle", Some(Knowledge::Arrivals(arrivals))) => Box::new(ArrivalOracle::new(arrivals)),
        ("rate-oracle", Some(Knowledge::Rates(rates))) => Box::new(Trawl::rate_oracle(rates)),
        ("oracle" | "rate-oracle", _) => {
            return Err(ScheduleError::KnowledgeMissing(name.to_string()));
        }
        ("trawl", _) => Box::new(Trawl::new(TrawlConfig::default())),
        ("lws", _) => Box::new(ListWise::new(ListWiseConfig::lws())),
        ("lws-bc", _) => Box::new(ListWise::new(ListWiseConfig::lws_bc())),
        ("bic-bra", _) => Box::new(BoardBased::new(BoardConfig::new(BoardAllocation::Bra))),
        ("era", _) => Box::new(BoardBased::new(BoardConfig::new(BoardAllocation::Era))),
        ("wra", _) => Box::new(BoardBased::new(BoardConfig::new(BoardAllocation::Wra))),
        ("lra", _) => Box::new(BoardBased::new(BoardConfig::new(BoardAllocation::Lra))),
        ("uniform", _) => Box::new(RoundRobin::new()),
        ("bfs", _) => Box::new(BreadthFirst::new()),
        ("poisson", _) => Box::new(PoissonRate::new()),
        ("curve-fitting", _) => Box::new(Longevity::curve_fitting()),
        ("bound-based", _) => Box::new(Longevity::bound_based()),
        ("nutch", _) => Box::new(AdaptiveRevisit::nutch()),
        ("stormcrawler", _) => Box::new(AdaptiveRevisit::stormcrawler()),
        _ => return Err(ScheduleError::UnknownPolicy(name.to_string())),
    };
    Ok(policy)
}

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
    #[error("no policy is named {0:?}")]
    UnknownPolicy(String),
    #[error("policy {0:?} is an oracle: it needs the forum's truth as knowledge")]
    KnowledgeMissing(String),
    /// A saved policy state that cannot be restored (another policy's, another format, damaged).
    #[error("the saved policy state cannot be restored: {0}")]
    SavedState(String),
}

#[cfg(test)]
mod names_tests {
    use super::*;

    #[test]
    fn every_name_builds_the_policy_of_that_name() {
        for name in POLICY_NAMES {
            let knowledge = match knowledge_needed(name) {
                Some("arrivals") => Some(Knowledge::Arrivals(KnownArrivals::default())),
                Some(_) => Some(Knowledge::Rates(KnownRates::default())),
                None => None,
            };
            let policy = policy_with_knowledge(name, knowledge).expect("a known name");
            assert_eq!(policy.name(), name);
        }
        assert!(policy_named("oracle").is_none());
        assert_eq!(
            policy_with_knowledge("rate-oracle", None).unwrap_err(),
            ScheduleError::KnowledgeMissing("rate-oracle".to_string())
        );
        assert!(matches!(
            policy_with_knowledge("trawl2", None),
            Err(ScheduleError::UnknownPolicy(_))
        ));
        // A live driver may run the scheduler on a worker thread.
        fn movable_between_threads<T: Send>(_: &T) {}
        movable_between_threads(&Scheduler::new(policy_named("trawl").unwrap()));
        assert!(policy_named("").is_none());
    }
}
