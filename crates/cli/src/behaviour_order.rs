//! `trawl crawl --order behaviour --patterns patterns.json`: the frontier ordered by the
//! comprehensive-fetch ranking `trawl patterns` learned from browse logs. The strategy (the
//! learned plan, or breadth-first) still decides which links are followed; the ranking decides
//! in what order the frontier hands them out.
//!
//! The order is part of the crawl, like its strategy: the crawl database keeps its name and the
//! patterns' text, so a rerun resumes in the same order without being told again, even when the
//! patterns file has moved or gone. A rerun that names another order, or other patterns, is
//! refused with the order the crawl holds: changing it halfway would make a crawl that is
//! neither, and its figures would mean nothing.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_behaviour::{Goal, PatternModel};
use trawl_crawl::FrontierPriority;
use trawl_store::StoreLocation;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// First in, first out (the default for a new crawl).
    Queue,
    /// By the value users give each URL's pattern (needs --patterns).
    Behaviour,
}

#[derive(Debug, Args)]
pub struct OrderArgs {
    /// In what order the frontier hands out the URLs the strategy follows (a new crawl without
    /// it uses the queue). A resumed crawl keeps the order and patterns it began with; it needs
    /// neither option again, and refuses another order.
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
    /// A patterns file written by `trawl patterns`, for --order behaviour.
    #[arg(long)]
    pub patterns: Option<PathBuf>,
}

/// Names of the orders in a crawl database.
const QUEUE_ORDER: &str = "queue";
const BEHAVIOUR_ORDER: &str = "behaviour";

/// The order a crawl's frontier follows, as the crawl database keeps it.
#[derive(Debug, Clone, PartialEq)]
pub enum CrawlOrder {
    Queue,
    /// With the text of the patterns file (`trawl-patterns/1`).
    Behaviour {
        patterns_json: String,
    },
}

impl CrawlOrder {
    /// The behaviour order of patterns learned in process.
    pub fn of_model(model: &PatternModel) -> Result<CrawlOrder> {
        Ok(CrawlOrder::Behaviour {
            patterns_json: serde_json::to_string(model).context("cannot write the patterns")?,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            CrawlOrder::Queue => QUEUE_ORDER,
            CrawlOrder::Behaviour { .. } => BEHAVIOUR_ORDER,
        }
    }

    pub fn patterns_json(&self) -> Option<&str> {
        match self {
            CrawlOrder::Queue => None,
            CrawlOrder::Behaviour { patterns_json } => Some(patterns_json),
        }
    }

    /// The order a crawl database names, with the patterns it holds.
    pub fn from_stored(
        db: &StoreLocation,
        name: &str,
        patterns_json: Option<&str>,
    ) -> Result<CrawlOrder> {
        match (name, patterns_json) {
            (QUEUE_ORDER, _) => Ok(CrawlOrder::Queue),
            (BEHAVIOUR_ORDER, Some(text)) => Ok(CrawlOrder::Behaviour {
                patterns_json: text.to_string(),
            }),
            (BEHAVIOUR_ORDER, None) => bail!(
                "{} holds a crawl ordered by behaviour without its patterns",
                db
            ),
            (other, _) => bail!(
                "{} holds a crawl with the unknown frontier order {other:?}",
                db
            ),
        }
    }

    /// The frontier priority of this order, `None` for the plain queue.
    pub fn priority(&self) -> Result<Option<FrontierPriority>> {
        match self {
            CrawlOrder::Queue => Ok(None),
            CrawlOrder::Behaviour { patterns_json } => {
                let model = PatternModel::from_json(patterns_json)
                    .context("the patterns of the behaviour order are not usable")?;
                Ok(Some(priority_of(model)))
            }
        }
    }

    /// Whether two orders rank alike: the same name, and for behaviour the same patterns (read
    /// as JSON, so a file written again with other spacing is still the same patterns).
    fn same_as(&self, other: &CrawlOrder) -> bool {
        match (self.patterns_json(), other.patterns_json()) {
            (Some(mine), Some(theirs)) => {
                let read = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
                mine == theirs || read(mine).is_some_and(|value| Some(value) == read(theirs))
            }
            _ => self.name() == other.name(),
        }
    }
}

impl OrderArgs {
    /// The order these options ask for, `None` when they name none (a resumed crawl then keeps
    /// its own). The patterns file is read and checked here, before any database is touched.
    pub fn asked(&self) -> Result<Option<CrawlOrder>> {
        match (self.order, &self.patterns) {
            (None, None) => Ok(None),
            (None | Some(OrderArg::Queue), Some(_)) => {
                bail!("--patterns orders nothing without --order behaviour")
            }
            (Some(OrderArg::Queue), None) => Ok(Some(CrawlOrder::Queue)),
            (Some(OrderArg::Behaviour), None) => {
                bail!("--order behaviour needs --patterns (written by `trawl patterns`)")
            }
            (Some(OrderArg::Behaviour), Some(path)) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the patterns file {}", path.display()))?;
                PatternModel::from_json(&text)
                    .with_context(|| format!("cannot use the patterns file {}", path.display()))?;
                Ok(Some(CrawlOrder::Behaviour {
                    patterns_json: text,
                }))
            }
        }
    }
}

/// The order a crawl goes on in, from the one its database holds (`None` for a new crawl or one
/// begun before orders were stored) and the one the command asks for; and whether the database
/// must be told it (it named none).
pub fn settled_order(
    db: &StoreLocation,
    stored: Option<CrawlOrder>,
    asked: Option<CrawlOrder>,
) -> Result<(CrawlOrder, bool)> {
    match (stored, asked) {
        (None, asked) => Ok((asked.unwrap_or(CrawlOrder::Queue), true)),
        (Some(stored), None) => Ok((stored, false)),
        (Some(stored), Some(asked)) if stored.same_as(&asked) => Ok((stored, false)),
        (Some(stored), Some(asked)) if stored.name() == asked.name() => bail!(
            "{} holds a crawl ordered by behaviour with other patterns than the file given; a \
             resumed crawl keeps the patterns it began with (the database holds them): rerun \
             without --order and --patterns, or choose another --db file for a new crawl",
            db
        ),
        (Some(stored), Some(asked)) => bail!(
            "{} holds a crawl ordered by {}, not by {}; a resumed crawl keeps its order: rerun \
             without --order (or with --order {}), or choose another --db file for a new crawl",
            db,
            stored.name(),
            asked.name(),
            stored.name()
        ),
    }
}

/// The comprehensive-fetch priority of `model`.
pub fn priority_of(model: PatternModel) -> FrontierPriority {
    FrontierPriority::new(move |url: &str| model.priority(url, Goal::Fetch))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn behaviour(patterns: &str) -> CrawlOrder {
        CrawlOrder::Behaviour {
            patterns_json: patterns.to_string(),
        }
    }

    /// Settles `stored` against `asked` and checks the order and whether it is recorded, or
    /// that the refusal names `refusal`.
    fn check(
        stored: Option<CrawlOrder>,
        asked: Option<CrawlOrder>,
        expected: Result<(CrawlOrder, bool), &str>,
    ) {
        let got = settled_order(
            &StoreLocation::parse("crawl.db"),
            stored.clone(),
            asked.clone(),
        );
        match (got, expected) {
            (Ok(got), Ok(expected)) => assert_eq!(got, expected, "{stored:?} {asked:?}"),
            (Err(error), Err(refusal)) => {
                let message = error.to_string();
                assert!(
                    message.contains(refusal) && message.contains("crawl.db"),
                    "{stored:?} {asked:?}: {message}"
                );
            }
            (got, expected) => panic!("{stored:?} {asked:?}: {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn a_new_crawl_takes_the_order_asked_for_or_the_queue() {
        check(None, None, Ok((CrawlOrder::Queue, true)));
        check(None, Some(CrawlOrder::Queue), Ok((CrawlOrder::Queue, true)));
        check(None, Some(behaviour("{}")), Ok((behaviour("{}"), true)));
    }

    #[test]
    fn a_resumed_crawl_keeps_its_order_unless_asked_for_another() {
        let patterns = r#"{"format": "trawl-patterns/1", "users": 3}"#;
        check(
            Some(behaviour(patterns)),
            None,
            Ok((behaviour(patterns), false)),
        );
        check(
            Some(CrawlOrder::Queue),
            None,
            Ok((CrawlOrder::Queue, false)),
        );
        check(
            Some(CrawlOrder::Queue),
            Some(CrawlOrder::Queue),
            Ok((CrawlOrder::Queue, false)),
        );
        // The same patterns written again with other spacing are the same patterns.
        check(
            Some(behaviour(patterns)),
            Some(behaviour(r#"{ "users": 3, "format": "trawl-patterns/1" }"#)),
            Ok((behaviour(patterns), false)),
        );
        check(
            Some(behaviour(patterns)),
            Some(CrawlOrder::Queue),
            Err("ordered by behaviour, not by queue"),
        );
        check(
            Some(CrawlOrder::Queue),
            Some(behaviour(patterns)),
            Err("ordered by queue, not by behaviour"),
        );
        check(
            Some(behaviour(patterns)),
            Some(behaviour(r#"{"format": "trawl-patterns/1", "users": 4}"#)),
            Err("other patterns"),
        );
    }

    #[test]
    fn stored_orders_are_read_back_or_refused() {
        let db = &StoreLocation::parse("crawl.db");
        assert_eq!(
            CrawlOrder::from_stored(db, "queue", None).unwrap(),
            CrawlOrder::Queue
        );
        assert_eq!(
            CrawlOrder::from_stored(db, "behaviour", Some("{}")).unwrap(),
            behaviour("{}")
        );
        assert!(CrawlOrder::from_stored(db, "behaviour", None).is_err());
        assert!(CrawlOrder::from_stored(db, "random", None).is_err());
    }
}
